"""`pandora ask`: answer a question with code an LLM writes and the executor runs."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cli.charts import chart_option, check_chart_path, write_chart
from cli.output import (
    EXIT_FAILED,
    json_option,
    one_line,
    print_error_line,
    print_json,
    print_warning,
    reports_errors,
    tab_separated,
)
from cli.sources import open_workspace, source_options


@click.command("ask")
@click.argument("question")
@click.option(
    "--source", "sources", multiple=True, required=True, help="A source (repeat for several)."
)
@click.option(
    "--representation",
    type=click.Choice(["pandas", "networkx", "sql"]),
    help="How the LLM sees the data (default: pandas; sql for very big databases).",
)
@click.option("--entities", multiple=True, help="KG: a topic entity (repeat for several).")
@click.option("--hops", type=click.IntRange(min=0), help="KG: radius of the subgraph (default 2).")
@click.option(
    "-k", "--demonstrations", type=click.IntRange(min=0), help="Demonstrations shown (K)."
)
@click.option("--attempts", type=click.IntRange(min=1), help="Programs tried at most (L).")
@click.option(
    "--retrieval",
    type=click.Choice(["cross", "same", "random", "none"]),
    help="Which demonstrations: across tasks (default), same kind, random, none.",
)
@click.option("--no-guidance", is_flag=True, help="Ablation: no second attempt after a failure.")
@click.option("--direct", is_flag=True, help="Baseline: ask for the answer itself, no code.")
@click.option("--trace", is_flag=True, help="Stream node events to stderr as they happen.")
@chart_option
@source_options
@json_option
@reports_errors
def ask_command(
    question: str,
    sources: tuple[str, ...],
    representation: str | None,
    entities: tuple[str, ...],
    hops: int | None,
    demonstrations: int | None,
    attempts: int | None,
    retrieval: str | None,
    no_guidance: bool,
    direct: bool,
    trace: bool,
    chart_path: Path | None,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Answer QUESTION over the --source files or URLs.

    The LLM is the one configured (OPENAI_BASE_URL, OPENAI_API_KEY,
    PANDORA_MODEL), else the local model of the `local` extra. Prints the
    answer's rows; with --json, the Answer object. With --chart FILE, the
    figure the answering code drew is written to FILE as PNG.
    """
    from agent import AgentContext, ask

    check_chart_path(chart_path)
    settings = {
        "demonstrations": demonstrations,
        "max_attempts": attempts,
        "retrieval": retrieval,
    }
    context = AgentContext(
        **{name: value for name, value in settings.items() if value is not None},
        execution_guidance=not no_guidance,
        direct_answer=direct,
    )
    workspace = open_workspace(sources, plugin, source_name, kg)
    answer = ask(
        question,
        workspace,
        representation=representation,
        entities=entities,
        hops=hops,
        context=context,
        on_event=(lambda event: click.echo(one_line(event.one_line()), err=True))
        if trace
        else None,
    )
    if as_json:
        print_json(answer)
    else:
        if answer.columns and answer.answer:
            click.echo(tab_separated(answer.columns))
        for row in answer.answer:
            click.echo(tab_separated([_cell(value) for value in row]))
        click.echo(
            f"pandora: {answer.representation}, {answer.attempts} attempt(s), "
            f"{answer.llm_calls} LLM call(s)",
            err=True,
        )
    if answer.soft:
        print_warning("soft answer: read from the code's last comment, the code did not run")
    if answer.error is not None:
        print_error_line(answer.error.type, answer.error.message)
        sys.exit(EXIT_FAILED)
    # Answer.chart (a base64 PNG) is set by the agent from the executor's result
    write_chart(getattr(answer, "chart", None), chart_path)


def _cell(value: object) -> str:
    from plugins.executor.results import render_value

    return render_value(value)
