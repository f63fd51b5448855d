"""What `pandora run` and `pandora graph` share: their options, reading code,
reporting its execution."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cli.output import (
    EXIT_FAILED,
    print_error_line,
    print_json,
    print_warning,
    tab_separated,
    terminal_safe,
    write_output,
)
from plugins.errors import BadInputError

if TYPE_CHECKING:
    from plugins.executor import ExecutionResult

DEFAULT_MAX_ROWS = 10_000

timeout_option = click.option(
    "--timeout",
    type=click.FloatRange(min=0, min_open=True),
    default=10.0,
    show_default=True,
    help="Seconds the code may run before it is stopped.",
)
max_rows_option = click.option(
    "--max-rows",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_ROWS,
    show_default=True,
    help="Rows of the result kept; more are cut and reported as truncated.",
)


def read_code(code_path: str) -> str:
    """The program text, UTF-8, from a file or from stdin for `-`."""
    if code_path == "-":
        code, where = sys.stdin.buffer.read(), "the code on stdin"
    else:
        path = Path(code_path)
        if not path.is_file():
            raise BadInputError(f"{code_path}: no such code file")
        code, where = path.read_bytes(), code_path
    try:
        return code.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        message = f"{where}: not UTF-8 text (byte offset {error.start}); save the code as UTF-8"
        raise BadInputError(message) from None


def report_execution(
    outcome: ExecutionResult,
    as_json: bool,
    max_rows: int,
    soft_answer: list[list[str]] | None = None,
    output_path: str | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Print the outcome (and write its rows to `output_path`, when given and
    the code ran) and exit 1 if the code failed (`extra`: more keys of the
    JSON object, such as `focus`).

    JSON: columns, result rows of JSON values, truncated, total_rows, error,
    stdout, elapsed_ms. Text: the program's printed output on stderr, then
    a header line and tab-separated rows on stdout, and a note on stderr when
    rows were cut. A `soft_answer` (KG2Code: stated by the code's last
    comment) is reported, marked soft, when the code failed.
    """
    if output_path and outcome.result is not None:
        write_output(output_path, outcome.columns or [], outcome.result)
    if as_json:
        payload: dict[str, Any] = {
            "columns": outcome.columns,
            "result": outcome.result,
            "truncated": outcome.truncated,
            "total_rows": outcome.total_rows,
            "error": outcome.error.model_dump() if outcome.error else None,
            "stdout": outcome.stdout,
            "elapsed_ms": outcome.elapsed_ms,
        }
        if soft_answer is not None:
            payload.update({"soft_answer": soft_answer, "soft": True})
        print_json({**payload, **(extra or {})})
    else:
        print_text(outcome, max_rows, soft_answer)
    if outcome.error:
        line = f" (line {outcome.error.line})" if outcome.error.line else ""
        print_error_line(outcome.error.type, f"{outcome.error.message}{line}")
        if soft_answer is not None:
            print_warning("the rows shown are the soft answer of its last comment")
        sys.exit(EXIT_FAILED)


def print_text(
    outcome: ExecutionResult, max_rows: int, soft_answer: list[list[str]] | None
) -> None:
    """The program's output on stderr, the result as a header and tab-separated rows."""
    from plugins.executor.results import render_value

    click.echo(terminal_safe(outcome.stdout), nl=False, err=True)
    if outcome.result is not None:
        rows = [[render_value(value) for value in row] for row in outcome.result]
        if outcome.columns:
            click.echo(tab_separated(outcome.columns))
    else:
        rows = soft_answer or []
    for row in rows:
        click.echo(tab_separated(row))
    if outcome.truncated:
        if outcome.total_rows is not None and outcome.total_rows > len(rows):
            note = f"the first {len(rows)} of {outcome.total_rows} rows (--max-rows {max_rows})"
        else:
            note = "long cells or the printed output cut at the executor's size caps"
        print_warning(f"the result is truncated: {note}")
