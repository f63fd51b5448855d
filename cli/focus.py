"""The KG focus a command worked with, as lines on stderr."""

from __future__ import annotations

import click

from cli.output import terminal_safe
from plugins.knowledge_graph.focus_report import GraphFocus, focus_line


def report_focus(linked: list[GraphFocus]) -> None:
    """One stderr line per KG: what each entity was linked to, and the hops."""
    for graph in linked:
        click.echo(terminal_safe("focus: " + focus_line(graph)), err=True)
