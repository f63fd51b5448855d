"""`pandora graph`: NetworkX (KG2Code) code on a KG subgraph, in the executor.

The code sees `graph` (the focus subgraph as an `nx.MultiDiGraph`), `nx` and
`question`; it assigns `result` or defines `KGQA(question, graph)`. When it
fails and its last comment line states an answer (`# length: 2`), that
answer is reported as `soft_answer` with `"soft": true`.
"""

from __future__ import annotations

import sys

import click

from cli.output import EXIT_FAILED, json_option, print_json, reports_errors
from cli.run import read_code
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
    if as_json:
        payload = {
            "result": outcome.result,
            "error": outcome.error.model_dump() if outcome.error else None,
            "stdout": outcome.stdout,
            "elapsed_ms": outcome.elapsed_ms,
            "truncated": outcome.truncated,
        }
        if soft_answer is not None:
            payload.update({"soft_answer": soft_answer, "soft": True})
        print_json(payload)
    else:
        click.echo(outcome.stdout, nl=False, err=True)
        for row in outcome.result or soft_answer or []:
            click.echo("\t".join(row))
    if outcome.error:
        line = f" (line {outcome.error.line})" if outcome.error.line else ""
        click.echo(f"pandora: {outcome.error.type}{line}: {outcome.error.message}", err=True)
        if soft_answer is not None:
            click.echo(
                "pandora: the answer printed is the soft answer of the last comment", err=True
            )
        sys.exit(EXIT_FAILED)
