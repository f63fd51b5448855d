"""`ask`: one question, one call, within an optional time limit."""

from __future__ import annotations

import contextvars
import dataclasses
import os
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from agent.answer import Answer, AnswerError, TraceEvent
from agent.context import AgentContext
from agent.state import initial_state
from agent.workspaces import source_locations
from plugins import Workspace, load_source
from plugins.errors import BadInputError, PandoraError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from agent.sessions import SessionTurn

QUESTION_THREAD_NAME = "pandora-question"
"""The name of the worker thread of a question asked with a timeout."""

WIND_DOWN_SECONDS = 3.0
"""How long a question past its deadline gets to end its current step."""


def ask(
    question: str,
    sources: Sequence[str] | Workspace,
    *,
    representation: str | None = None,
    entities: Sequence[str] = (),
    hops: int | None = None,
    context: AgentContext | None = None,
    chat_model: BaseChatModel | None = None,
    on_event: Callable[[TraceEvent], None] | None = None,
    timeout_seconds: float | None = None,
    earlier_turns: Sequence[SessionTurn] = (),
) -> Answer:
    """Answer `question` over `sources` (paths/URLs, or an opened Workspace)
    by having the LLM write code that the executor runs.

    `chat_model` None uses the configured LLM (`agent.llm.configured_chat_model`,
    which raises `LLMNotConfiguredError` when there is none); `on_event`
    receives every node event as it happens. `timeout_seconds` (None:
    `PANDORA_ASK_TIMEOUT`, else no limit) bounds the whole question: when it
    is up, the Answer's error type is `Timeout` and the question's LLM
    requests still running are cut. Bad input (missing source, unknown
    representation, unknown entity) raises `BadInputError`; a question that
    could not be answered returns an Answer whose `error` says why.
    `earlier_turns` (a session's, `agent.sessions`) are quoted in the prompt
    before the question, and turn the program cache off for it.
    """
    if not question.strip():
        raise BadInputError("the question is empty")
    workspace = (
        sources
        if isinstance(sources, Workspace)
        else Workspace.of(load_source(location) for location in sources)
    )
    seconds = question_timeout(timeout_seconds)
    base = context or AgentContext()
    run = dataclasses.replace(
        base,
        program_cache=base.program_cache and not earlier_turns,
        workspace=workspace,
        chat_model=chat_model or (context and context.chat_model),
        on_event=on_event or (context and context.on_event),
    )
    state = initial_state(
        question,
        source_locations(workspace),
        representation=representation,
        entities=list(entities),
        hops=hops,
        earlier_turns=list(earlier_turns),
    )
    from agent.local_model.sharing import server_use

    with server_use.held():
        if seconds is None:
            return _answer(state, run)
        return _answer_in_time(state, run, seconds)


def question_timeout(seconds: float | None) -> float | None:
    """The time limit of a question: `seconds`, else `PANDORA_ASK_TIMEOUT`, else None."""
    if seconds is None:
        text = os.environ.get("PANDORA_ASK_TIMEOUT")
        if not text:
            return None
        try:
            seconds = float(text)
        except ValueError:
            seconds = 0.0
        if seconds <= 0:
            raise BadInputError(f"PANDORA_ASK_TIMEOUT={text!r} must be a number of seconds > 0")
    if seconds <= 0:
        raise BadInputError(f"the timeout must be more than 0 seconds, not {seconds:g}")
    return seconds


def _answer(state: dict[str, Any], run: AgentContext) -> Answer:
    from agent.graph import graph
    from agent.llm import configured_chat_model

    if run.chat_model is None:
        run = dataclasses.replace(run, chat_model=configured_chat_model())
    result = graph.invoke(state, context=run)
    answer = result.get("answer")
    if answer is None:
        raise PandoraError("the agent ended without an answer")
    return answer


def _answer_in_time(state: dict[str, Any], run: AgentContext, seconds: float) -> Answer:
    """Answer in a worker thread (the caller's context copied into it) under
    a question deadline that cuts its LLM requests; give up waiting when the
    time is up (the worker, a daemon, ends with its current step)."""
    from agent.llm_deadline import question_deadline

    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            with question_deadline(seconds):
                outcome["answer"] = _answer(state, run)
        except BaseException as error:  # handed to the caller's thread
            outcome["error"] = error

    context = contextvars.copy_context()
    worker = threading.Thread(target=context.run, args=(work,), name=QUESTION_THREAD_NAME)
    worker.daemon = True
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        # The deadline cuts the worker's LLM request at this same moment: let
        # it wind down, so a process exiting next does not tear it down mid-step.
        worker.join(WIND_DOWN_SECONDS)
    elif "error" in outcome:
        raise outcome["error"]
    elif "answer" in outcome:
        return outcome["answer"]
    return Answer(
        error=AnswerError(type="Timeout", message=f"no answer within the {seconds:g} s allowed")
    )
