"""`pandora sql`: one read-only SQL query on a database or on flat tables."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table

from cli.output import EXIT_FAILED, json_option, print_json, reports_errors
from cli.sources import open_source, source_options
from plugins import Workspace
from plugins.descriptions import json_value
from plugins.sql_schema import QueryFailed, QueryRefused, run_query
from plugins.sql_schema.query import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_SECONDS


@click.command("sql")
@click.argument("src")
@click.argument("query")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT_SECONDS, show_default=True)
@click.option("--max-rows", type=click.IntRange(min=1), default=DEFAULT_MAX_ROWS, show_default=True)
@source_options
@json_option
@reports_errors
def sql_command(
    src: str,
    query: str,
    timeout: float,
    max_rows: int,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run one read-only QUERY on SRC; anything that writes is refused."""
    workspace = Workspace.of([open_source(src, plugin, source_name, kg)])
    try:
        result = run_query(workspace, query, timeout, max_rows)
    except (QueryRefused, QueryFailed) as error:
        kind = "Refused" if isinstance(error, QueryRefused) else "QueryFailed"
        if as_json:
            print_json({"columns": [], "rows": [], "error": {"type": kind, "message": str(error)}})
        click.echo(f"pandora: {kind.lower()}: {error}", err=True)
        sys.exit(EXIT_FAILED)
    rows = [[json_value(value) for value in row] for row in result.rows]
    if as_json:
        print_json(
            {"columns": result.columns, "rows": rows, "error": None, "truncated": result.truncated}
        )
        return
    table = Table(*result.columns)
    for row in rows:
        table.add_row(*("NULL" if value is None else str(value) for value in row))
    Console().print(table)
    if result.truncated:
        click.echo(f"pandora: only the first {max_rows} rows are shown (--max-rows)", err=True)
