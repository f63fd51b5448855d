"""Options shared by commands that open sources (`--plugin`, `--name`, `--kg`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

from plugins import Source, Workspace, load_source
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
