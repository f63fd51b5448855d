"""`pandora run`: pandas code on the BOXes of one or more sources, in the executor."""

from __future__ import annotations

import click

from cli.code_runs import read_code, report_execution
from cli.output import json_option, reports_errors
from cli.sources import open_workspace, source_options
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
    report_execution(outcome, as_json)
