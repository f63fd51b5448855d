"""`pandora run`: pandas code on the BOXes of one or more sources, in the executor."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cli.output import EXIT_FAILED, json_option, print_json, reports_errors
from cli.sources import open_workspace, source_options
from plugins.errors import BadInputError
from plugins.executor import execute


@click.command("run")
@click.argument("srcs", nargs=-1, required=True, metavar="SRC [SRC...]")
@click.option("--code", "code_path", required=True, help="File with the code, or - for stdin.")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds.")
@source_options
@json_option
@reports_errors
def run_command(
    srcs: tuple[str, ...],
    code_path: str,
    timeout: float,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run pandas code on the BOXes of SRC...; the code must assign `result`."""
    code = read_code(code_path)
    workspace = open_workspace(srcs, plugin, source_name, kg)
    outcome = execute(code, workspace, "pandas", timeout_seconds=timeout)
    if as_json:
        print_json(
            {
                "result": outcome.result,
                "error": outcome.error.model_dump() if outcome.error else None,
                "stdout": outcome.stdout,
                "elapsed_ms": outcome.elapsed_ms,
                "truncated": outcome.truncated,
            }
        )
    else:
        click.echo(outcome.stdout, nl=False, err=True)
        for row in outcome.result or []:
            click.echo("\t".join(row))
    if outcome.error:
        line = f" (line {outcome.error.line})" if outcome.error.line else ""
        click.echo(f"pandora: {outcome.error.type}{line}: {outcome.error.message}", err=True)
        sys.exit(EXIT_FAILED)


def read_code(code_path: str) -> str:
    """The program text from a file, or from stdin for `-`."""
    if code_path == "-":
        return sys.stdin.read()
    path = Path(code_path)
    if not path.is_file():
        raise BadInputError(f"{code_path}: no such code file")
    return path.read_text(encoding="utf-8")
