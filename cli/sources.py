"""Options shared by commands that open sources (`--plugin`, `--name`, `--kg`) and by
commands that focus on part of a knowledge graph (`--entities`, `--question`, `--hops`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from plugins import Focus, Source, Workspace, load_source
from plugins.errors import BadInputError

TRIPLES_LOADER = "triples"


def source_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add `--plugin`, `--name` and `--kg` to a command."""
    command = click.option(
        "--kg", is_flag=True, help="Read a .tsv file as subject/predicate/object triples."
    )(command)
    command = click.option(
        "--name", "source_name", help="Name of the source (default: the file stem)."
    )(command)
    return click.option(
        "--plugin", help="Loader to use instead of the one chosen by extension or scheme."
    )(command)


def focus_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add `--entities`, `--question` and `--hops` (the focus on a KG) to a command."""
    command = click.option(
        "--hops",
        type=click.IntRange(min=0),
        default=2,
        show_default=True,
        help="KG: radius of the subgraph around the topic entities.",
    )(command)
    command = click.option(
        "--question", help="KG: find the topic entities in this question (without --entities)."
    )(command)
    return click.option(
        "--entities",
        multiple=True,
        help="KG: a topic entity, as an IRI, local name or label (repeat for several).",
    )(command)


def focus_of(entities: Sequence[str], question: str | None, hops: int) -> Focus | None:
    """The focus the options ask for, or None when they name no entity and no question."""
    if not entities and not question:
        return None
    return Focus(question=question, entities=tuple(entities), hops=hops)


def check_focus(workspace: Workspace, focus: Focus | None) -> None:
    """Find the focus in every KG of `workspace` now, so that a missing focus or an
    unknown entity is bad input (exit 2) before any code runs."""
    from plugins.knowledge_graph import focus_subgraph

    for source in workspace.sources:
        if source.kind == "kg":
            focus_subgraph(source.handle, focus or Focus())


def open_source(spec: str, plugin: str | None, name: str | None, kg: bool) -> Source:
    """Load one source from the CLI options."""
    if kg and plugin and plugin != TRIPLES_LOADER:
        raise BadInputError(f"--kg reads triples; it cannot be combined with --plugin {plugin}")
    return load_source(spec, plugin=TRIPLES_LOADER if kg else plugin, name=name)


def open_workspace(
    specs: Sequence[str], plugin: str | None, name: str | None, kg: bool
) -> Workspace:
    """Load every source into one workspace; `--name` only makes sense for one source."""
    if name and len(specs) > 1:
        raise BadInputError("--name names a single source; give one SRC or drop --name")
    return Workspace.of(open_source(spec, plugin, name, kg) for spec in specs)
