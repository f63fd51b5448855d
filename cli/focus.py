"""The KG focus a command worked with, as lines on stderr."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from cli.output import terminal_safe

if TYPE_CHECKING:
    from plugins.knowledge_graph.focus_report import GraphFocus


def report_focus(linked: list[GraphFocus]) -> None:
    """One stderr line per KG: what each entity was linked to, and the hops."""
    if not linked:
        return
    from plugins.knowledge_graph.focus_report import focus_line  # pydantic: only for KGs

    for graph in linked:
        click.echo(terminal_safe("focus: " + focus_line(graph)), err=True)
