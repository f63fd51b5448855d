"""`pandora ask`: answer a question with code an LLM writes and the executor runs."""

from __future__ import annotations

import atexit
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from cli.charts import chart_option, check_chart_path, write_chart
from cli.output import (
    EXIT_FAILED,
    check_output_is_not_a_source,
    json_option,
    one_line,
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

if TYPE_CHECKING:
    from agent.answer import Answer
    from plugins import Workspace


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
@output_option
@click.option(
    "--save",
    is_flag=True,
    help="Store the program that answered in the memory, approved by you (the cache may reuse it).",
)
@click.option(
    "--timeout",
    "timeout_seconds",
    type=click.FloatRange(min=0, min_open=True),
    envvar="PANDORA_ASK_TIMEOUT",
    help="Seconds the whole question may take (env PANDORA_ASK_TIMEOUT; default: no limit).",
)
@click.option(
    "--session",
    metavar="NAME",
    help="Ask with the last questions of session NAME in the prompt, and add this one to it.",
)
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
    output_path: str | None,
    save: bool,
    timeout_seconds: float | None,
    session: str | None,
    chart_path: Path | None,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Answer QUESTION over the --source files or URLs.

    The LLM is the one configured (OPENAI_BASE_URL, OPENAI_API_KEY,
    PANDORA_MODEL), else the local model of the `local` extra. Prints the
    answer's rows; with --json, the Answer object. While the LLM writes, a
    live line on stderr counts its tokens and seconds (replies are streamed
    unless PANDORA_LLM_STREAM=0). With --chart FILE, the figure the
    answering code drew is written to FILE as PNG. With --session NAME, a
    follow-up ("and for 2019?") is asked with the session's last answered
    questions and programs (docs/sessions.md).
    """
    from agent import AgentContext, ask
    from agent.llm_progress import reporting_calls
    from agent.sessions import answered_turn, earlier_turns, record_turn
    from cli.live_line import LiveLine

    os.environ.setdefault("PANDORA_LLM_STREAM", "1")

    check_output_is_not_a_source(output_path, sources)
    check_chart_path(chart_path)
    turns = earlier_turns(session) if session else []
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
    with reporting_calls(LiveLine()):
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
            timeout_seconds=timeout_seconds,
            earlier_turns=turns,
        )
    turn = answered_turn(question, workspace, answer)
    if session and turn is not None:
        record_turn(session, turn)
    if output_path and answer.error is None:
        write_output(output_path, answer.columns, answer.answer)
    write_chart(answer.chart, chart_path)
    if as_json:
        print_json(answer)
    else:
        if answer.columns and answer.answer:
            click.echo(tab_separated(answer.columns))
        for row in answer.answer:
            click.echo(tab_separated([_cell(value) for value in row]))
        if answer.error is None and not answer.soft:
            print_answer_sentence(answer.columns, answer.answer)
        click.echo(
            f"pandora: {answer.representation}, {answer.attempts} attempt(s), "
            f"{answer.llm_calls} LLM call(s){_confidence(answer)}",
            err=True,
        )
    if answer.soft:
        print_warning(
            "soft answer: read from the code's last comment, the code did not run"
            if answer.code
            else "soft answer: the model read it from the data; no program computed it"
        )
    if answer.error is not None:
        print_error_line(answer.error.type, answer.error.message)
        if answer.error.type == "Timeout":
            exit_leaving_the_question_behind(EXIT_FAILED)
        sys.exit(EXIT_FAILED)
    if save:
        _save(question, answer, workspace, entities, hops)


def exit_leaving_the_question_behind(code: int) -> NoReturn:
    """Exit with `code` after a timed-out question, whose worker thread may
    still be ending its step: the exit handlers run (the model server is
    released, executor pools stop), but the interpreter is not torn down
    under that thread, which could crash it (a SIGSEGV instead of `code`)."""
    from agent.api import QUESTION_THREAD_NAME

    if not any(thread.name == QUESTION_THREAD_NAME for thread in threading.enumerate()):
        sys.exit(code)
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(code)


def _confidence(answer: Answer) -> str:
    """How many candidates agreed on the answer, when several were written."""
    ran = round(answer.votes / answer.agreement) if answer.agreement else 0
    if len(answer.candidates) < 2 or not ran:
        return ""
    read = sum(1 for candidate in answer.candidates if candidate.origin == "reading")
    readers = f" ({read} read the data)" if read else ""
    return f", {answer.votes} of {ran} candidates agree{readers}"


def _save(
    question: str,
    answer: Answer,
    workspace: Workspace,
    entities: tuple[str, ...],
    hops: int | None,
) -> None:
    """`--save`: run the answering program again and store it as `approved`
    with origin `cli` (the user's own verdict on the answer just printed)."""
    from memory import DemonstrationStore, FocusSpec, MemorySettings
    from memory.verification import answers_match, demonstration_on_workspace

    if answer.soft or not answer.code or not answer.answer:
        raise BadInputError("--save: no program answered with rows; nothing saved")
    has_kg = any(source.kind == "kg" for source in workspace.sources)
    demonstration, outcome = demonstration_on_workspace(
        workspace,
        question=question,
        code=answer.code,
        locations=[_absolute(source.location) for source in workspace.sources],
        representation=answer.representation,
        origin="cli",
        reasoning=answer.reasoning,
        focus=FocusSpec(entities=list(entities), hops=hops or 2) if has_kg else None,
        approved=True,
    )
    if not outcome.passed or not answers_match(outcome.answer, answer.answer):
        raise BadInputError("--save: the program returned another answer when run again; not saved")
    stored = DemonstrationStore.open(MemorySettings.from_env()).add(demonstration)
    state = "saved" if stored.added else "already stored"
    click.echo(f"pandora: {state} as {stored.id} ({stored.verified})", err=True)


def _absolute(location: str) -> str:
    from plugins.sources import url_scheme

    return location if url_scheme(location) else str(Path(location).resolve())


def _cell(value: object) -> str:
    from plugins.executor.results import render_value

    return render_value(value)
