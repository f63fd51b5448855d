"""`pandora graph`: NetworkX (KG2Code) code on a KG subgraph, in the executor.

The code sees `graph` (the focus subgraph as an `nx.MultiDiGraph`), `nx` and
`question`; it assigns `result` or defines `KGQA(question, graph)`. When it
fails and its last comment line states an answer (`# length: 2`), that
answer is reported as `soft_answer` with `"soft": true`.
"""

from __future__ import annotations

import click

from cli.code_runs import read_code, report_execution
from cli.output import json_option, reports_errors
from cli.sources import open_workspace, source_options
from plugins import Focus
from plugins.executor import execute
from plugins.networkx_kg import parse_soft_answer, workspace_subgraphs


@click.command("graph")
@click.argument("src")
@click.option("--code", "code_path", required=True, help="File with the code, or - for stdin.")
@click.option("--entities", multiple=True, help="Topic entity: IRI, local name or label (repeat).")
@click.option("--hops", type=int, default=2, show_default=True, help="Subgraph radius.")
@click.option("--question", help="The question (finds the topic entities without --entities).")
@click.option("--timeout", type=float, default=10.0, show_default=True, help="Seconds.")
@source_options
@json_option
@reports_errors
def graph_command(
    src: str,
    code_path: str,
    entities: tuple[str, ...],
    hops: int,
    question: str | None,
    timeout: float,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Run NetworkX code on the subgraph of SRC around the topic entities."""
    code = read_code(code_path)
    workspace = open_workspace((src,), plugin, source_name, kg)
    focus = Focus(question=question, entities=entities, hops=hops)
    workspace_subgraphs(workspace, focus)  # bad entities or hops: exit 2 before running
    outcome = execute(code, workspace, "networkx", focus=focus, timeout_seconds=timeout)
    soft_answer = parse_soft_answer(code) if outcome.error else None
    report_execution(outcome, as_json, soft_answer)
