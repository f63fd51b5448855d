"""`ask`: one question, one call."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agent.answer import Answer, TraceEvent
from agent.context import AgentContext
from agent.state import initial_state
from agent.workspaces import source_locations
from plugins import Workspace, load_source
from plugins.errors import PandoraError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel


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
) -> Answer:
    """Answer `question` over `sources` (paths/URLs, or an opened Workspace)
    by having the LLM write code that the executor runs.

    `chat_model` None uses the configured LLM (`agent.llm.configured_chat_model`,
    which raises `LLMNotConfiguredError` when there is none); `on_event`
    receives every node event as it happens. Bad input (missing source,
    unknown representation, unknown entity) raises `BadInputError`; a question
    that could not be answered returns an Answer whose `error` says why.
    """
    if not question.strip():
        from plugins.errors import BadInputError

        raise BadInputError("the question is empty")
    workspace = (
        sources
        if isinstance(sources, Workspace)
        else Workspace.of(load_source(location) for location in sources)
    )
    from agent.graph import graph
    from agent.llm import configured_chat_model

    run_context = dataclasses.replace(
        context or AgentContext(),
        workspace=workspace,
        chat_model=chat_model or (context and context.chat_model) or configured_chat_model(),
        on_event=on_event or (context and context.on_event),
    )
    state = initial_state(
        question,
        source_locations(workspace),
        representation=representation,
        entities=list(entities),
        hops=hops,
    )
    result = graph.invoke(state, context=run_context)
    answer = result.get("answer")
    if answer is None:
        raise PandoraError("the agent ended without an answer")
    return answer
