"""`pandora run`: pandas code on the BOXes of one or more sources, in the executor."""

from __future__ import annotations

from pathlib import Path

import click

from cli.charts import chart_option, check_chart_path, write_chart
from cli.code_runs import max_rows_option, read_code, report_execution, timeout_option
from cli.output import check_output_is_not_a_source, json_option, output_option, reports_errors
from cli.sources import check_focus, focus_of, focus_options, open_workspace, source_options
from plugins.executor import execute


@click.command("run")
@click.argument("srcs", nargs=-1, required=True, metavar="SRC [SRC...]")
@click.option("--code", "code_path", required=True, help="File with the code, or - for stdin.")
@focus_options
@timeout_option
@max_rows_option
@output_option
@chart_option
@source_options
@json_option
@reports_errors
def run_command(
    srcs: tuple[str, ...],
    code_path: str,
    entities: tuple[str, ...],
    question: str | None,
    hops: int,
    timeout: float,
    max_rows: int,
    output_path: str | None,
    chart_path: Path | None,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run pandas code on the BOXes of SRC...; the code must assign `result`.

    A knowledge graph has BOXes for the subgraph around its topic entities:
    name them with --entities, or give the --question to find them in.
    With --chart FILE, the figure the code draws (matplotlib, pandas' plot)
    is written to FILE as PNG.
    """
    check_output_is_not_a_source(output_path, srcs)
    check_chart_path(chart_path)
    code = read_code(code_path)
    workspace = open_workspace(srcs, plugin, source_name, kg)
    focus = focus_of(entities, question, hops)
    check_focus(workspace, focus)
    outcome = execute(
        code, workspace, "pandas", focus=focus, timeout_seconds=timeout, max_rows=max_rows
    )
    if outcome.error is None:
        write_chart(outcome.chart, chart_path)
    report_execution(outcome, as_json, max_rows, output_path=output_path)
