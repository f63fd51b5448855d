"""`pandora sql`: one read-only SQL query on a database or on flat tables."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from cli.output import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    check_output_is_not_a_source,
    json_option,
    output_option,
    print_answer_sentence,
    print_error_line,
    print_json,
    print_warning,
    reports_errors,
    tab_separated,
    write_output,
)
from cli.sources import open_workspace, source_options
from plugins.errors import BadInputError
from plugins.executor.results import json_cell
from plugins.sql_schema import QueryFailed, QueryRefused, run_query
from plugins.sql_schema.query import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT_SECONDS
from plugins.workspace import Workspace


@click.command("sql")
@click.argument("srcs", nargs=-1, required=True, metavar="SRC [SRC...]")
@click.argument("query")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIMEOUT_SECONDS,
    show_default=True,
    help="Seconds the query may run before it is stopped.",
)
@click.option(
    "--max-rows",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_ROWS,
    show_default=True,
    help="Rows kept; more are cut and reported as truncated.",
)
@output_option
@source_options
@json_option
@reports_errors
def sql_command(
    srcs: tuple[str, ...],
    query: str,
    timeout: float,
    max_rows: int,
    output_path: str | None,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run one read-only QUERY on SRC... (one database, or flat tables together).

    Anything that writes is refused, and nothing is run.
    """
    check_output_is_not_a_source(output_path, srcs)
    workspace = open_workspace(srcs, plugin, source_name, kg)
    _refuse_graphs(workspace)
    try:
        result = run_query(workspace, query, timeout_seconds=timeout, max_rows=max_rows)
    except QueryRefused as error:
        report_failure("Refused", explain_refusal(error), as_json, EXIT_BAD_INPUT)
    except QueryFailed as error:
        report_failure("QueryFailed", str(error), as_json, EXIT_FAILED)
    rows = [[json_cell(value) for value in row] for row in result.rows]
    if output_path:
        write_output(output_path, result.columns, rows)
    if as_json:
        print_json(
            {"columns": result.columns, "rows": rows, "truncated": result.truncated, "error": None}
        )
        return
    print_table(result.columns, rows)
    if result.truncated:
        print_warning(f"only the first {max_rows} rows are shown (--max-rows)")
    else:
        print_answer_sentence(result.columns, rows)


def report_failure(error_type: str, message: str, as_json: bool, exit_code: int) -> NoReturn:
    """Report a query that was refused or failed (with --json, in the result's shape) and exit."""
    if as_json:
        error = {"type": error_type, "message": " ".join(message.split())}
        print_json({"columns": [], "rows": [], "truncated": False, "error": error})
    print_error_line(error_type, message)
    sys.exit(exit_code)


def explain_refusal(error: QueryRefused) -> str:
    """Why the query was refused, a syntax error told in SQL terms (where and near
    what) instead of the parser's internal class names."""
    import sqlglot

    cause = error.__context__
    if isinstance(cause, sqlglot.errors.ParseError) and cause.errors:
        where = cause.errors[0]
        return (
            f"the query is not valid SQL: syntax error near {where['highlight']!r} "
            f"(line {where['line']}, column {where['col']})"
        )
    if isinstance(cause, sqlglot.errors.TokenError):
        return "the query is not valid SQL: a quote or bracket is never closed"
    return str(error)


def print_table(columns: list[str], rows: list[list[Any]]) -> None:
    """The rows on stdout as a header line and tab-separated rows, the shape
    `pandora run` prints; NULL is shown as `NULL`, values are never read as
    markup and control characters are escaped. Plain lines, not a rich table,
    keep rich's import out of this command's start-up."""
    click.echo(tab_separated(columns))
    for row in rows:
        click.echo(tab_separated(["NULL" if value is None else str(value) for value in row]))


def _refuse_graphs(workspace: Workspace) -> None:
    """A KG's tables are the BOXes of one question's subgraph, and a query
    typed here comes with no question: refuse it in one line."""
    graphs = [source.name for source in workspace.sources if source.kind == "kg"]
    if graphs:
        raise BadInputError(
            f"{', '.join(graphs)} is a knowledge graph: SQL runs on its tables only for a "
            "question (pandora ask), or in the MCP run_sql tool with entities"
        )
