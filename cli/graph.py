"""`pandora graph`: NetworkX (KG2Code) code on a KG subgraph, in the executor.

The code sees `graph` (the focus subgraph as an `nx.MultiDiGraph`), `nx` and
`question`; it assigns `result` or defines `KGQA(question, graph)`. When it
fails and its last comment line states an answer (`# length: 2`), that
answer is reported as `soft_answer` with `"soft": true`. What the focus
linked to is `focus` in --json, a line on stderr otherwise.
"""

from __future__ import annotations

import click

from cli.code_runs import max_rows_option, read_code, report_execution, timeout_option
from cli.focus import report_focus
from cli.output import json_option, reports_errors
from cli.sources import focus_of, focus_options, open_workspace, source_options
from plugins import Focus
from plugins.executor import execute
from plugins.knowledge_graph.focus_report import workspace_focus
from plugins.networkx_kg import parse_soft_answer, workspace_subgraphs


@click.command("graph")
@click.argument("src")
@click.option("--code", "code_path", required=True, help="File with the code, or - for stdin.")
@focus_options
@timeout_option
@max_rows_option
@source_options
@json_option
@reports_errors
def graph_command(
    src: str,
    code_path: str,
    entities: tuple[str, ...],
    question: str | None,
    hops: int,
    timeout: float,
    max_rows: int,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run NetworkX code on the subgraph of SRC around the topic entities."""
    code = read_code(code_path)
    workspace = open_workspace((src,), plugin, source_name, kg)
    focus = focus_of(entities, question, hops) or Focus(hops=hops)
    workspace_subgraphs(workspace, focus)  # no focus, bad entities or hops: exit 2 before running
    linked = workspace_focus(workspace, focus)
    if not as_json:
        report_focus(linked)
    outcome = execute(
        code, workspace, "networkx", focus=focus, timeout_seconds=timeout, max_rows=max_rows
    )
    soft_answer = parse_soft_answer(code) if outcome.error else None
    focus_json = {"focus": [graph.model_dump() for graph in linked]}
    report_execution(outcome, as_json, max_rows, soft_answer, extra=focus_json)
