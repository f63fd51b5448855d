"""`--chart FILE` of `pandora run` and `pandora ask`: where the PNG of the
figure the code drew (matplotlib, see docs/executor.md) is written."""

from __future__ import annotations

import base64
from pathlib import Path

import click

from cli.output import print_warning
from plugins.errors import BadInputError

chart_option = click.option(
    "--chart",
    "chart_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the figure the code draws (matplotlib) to FILE as PNG.",
)


def check_chart_path(path: Path | None) -> None:
    """Refuse, before anything runs, a chart FILE that cannot be written
    where it is asked for (its directory does not exist)."""
    if path is not None and not path.parent.is_dir():
        raise BadInputError(f"{path}: no such directory for the chart")


def write_chart(chart: str | None, path: Path | None) -> None:
    """Write `chart` (a base64 PNG) to `path`; when the code drew no figure,
    say so on stderr and leave `path` as it was."""
    if path is None:
        return
    if chart is None:
        print_warning(f"the code drew no figure: {path} is not written")
        return
    path.write_bytes(base64.b64decode(chart))
    click.echo(f"pandora: chart written to {path}", err=True)
