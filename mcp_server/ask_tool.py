"""The `ask` tool: hand a whole question to Pandora's agent.

Which model answers: the server's own LLM when one is configured (the
agent's rules: OPENAI_BASE_URL / PANDORA_MODEL, else the local model); else
the client's model through MCP sampling when the client offers it (see
`mcp_server.sampling` for how sampling travels in each protocol version);
else a tool error naming the tools the client's own model can use instead.
`ask_llm = "client"` in [mcp] skips the server's LLM (an assistant's model is
often much stronger than a small local one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import (
    CreateMessageRequest,
    CreateMessageResult,
    InputRequiredResult,
    ToolAnnotations,
)
from mcp_types.version import is_version_at_least
from pydantic import Field, ValidationError

from agent.answer import Answer, TraceEvent
from mcp_server.agent_run import AgentRun
from mcp_server.calls import add_tool, loaded_state
from mcp_server.caps import cap_rows, cap_text
from mcp_server.parameters import (
    Entities,
    Question,
    Representation,
    SessionName,
    TableSourceNames,
)
from mcp_server.state import ServerState
from plugins.errors import PandoraError

if TYPE_CHECKING:
    from mcp_server.sampling import RecordedReply
    from plugins import Workspace

FIRST_VERSION_WITHOUT_MID_CALL_REQUESTS = "2026-07-28"
REPLY_KEY = "sampling"
TRACE_TEXT_SHARE = 8
"""One text detail of the trace may use at most an eighth of the character budget."""

NO_MODEL = (
    "ask needs an LLM: this server has none to use (set OPENAI_BASE_URL / PANDORA_MODEL for "
    "`pandora serve`, or install the local model) and this client does not offer sampling. "
    "Answer with your own model instead: list_sources, describe_source, "
    "search_demonstrations, then run_pandas, run_sql or run_networkx."
)


class NoModelForAsk(PandoraError):
    """Neither the server nor the client has a model to answer with."""


class AgentFoundNoAnswer(PandoraError):
    """The agent ran and ended without an answer."""


class AskResult(Answer):
    """The agent's answer (rows of JSON values, the code that computed them,
    the reasoning), with its rows capped like every other result."""

    total_rows: int = Field(description="rows of the answer before the cap")
    truncated: bool = Field(description="true when rows or characters were cut")


async def ask(
    question: Question,
    ctx: Context,
    sources: TableSourceNames = None,
    representation: Representation | None = None,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: int | None = None,
    session: SessionName | None = None,
) -> AskResult | InputRequiredResult:
    """Answer a question end to end with Pandora's agent: it plans, retrieves
    demonstrations, writes code, runs it in the sandbox, and retries on errors.

    Use it when you want the answer without writing code yourself. `sources` are names
    from list_sources (default: every table and database); `representation` forces
    pandas, sql or networkx (default: chosen by the agent); knowledge graphs take
    `entities`. Returns `answer` (rows), `columns`, the `code` that computed it and its
    `reasoning`. It can take a while: progress is reported to clients that ask for it.
    A follow-up ("and for 2019?") names the same `session` as the question it follows.
    Example: ask(question="Which genre has the most albums?", sources=["music"]).
    """
    state = await loaded_state(ctx)
    agent_ask = await anyio.to_thread.run_sync(import_agent)  # off the loop: LangGraph is big
    from agent.sessions import earlier_turns
    from mcp_server.sampling import ClientSamplingChatModel

    turns = earlier_turns(session) if session else []
    workspace = state.catalog.workspace(sources)
    remember = functools.partial(_remember, session, question, workspace)
    agent_run = AgentRun(state.gate)
    run = functools.partial(
        agent_ask,
        question,
        workspace,
        representation=representation,
        entities=tuple(entities),
        hops=hops,
        on_event=_progress_reporter(ctx, agent_run),
        earlier_turns=turns,
    )
    if state.settings.ask_llm == "auto":
        server_model = await anyio.to_thread.run_sync(state.server_chat_model)
        if server_model is not None:
            answer = await agent_run.run(functools.partial(run, chat_model=server_model))
            return _result(state, remember(answer))
    if not _client_samples(ctx):
        raise NoModelForAsk(NO_MODEL)
    if not is_version_at_least(ctx.protocol_version or "", FIRST_VERSION_WITHOUT_MID_CALL_REQUESTS):
        model = ClientSamplingChatModel(
            context=ctx,
            agent_run=agent_run,
            timeout_seconds=state.settings.sampling_timeout_seconds,
        )
        answer = await agent_run.run(functools.partial(run, chat_model=model))
        return _result(state, remember(answer))
    return await _ask_in_rounds(state, run, ctx, agent_run, remember)


def _remember(session: str | None, question: str, workspace: Workspace, answer: Answer) -> Answer:
    """Add `answer`'s turn to `session`, when one is named and a program answered."""
    from agent.sessions import answered_turn, record_turn

    turn = answered_turn(question, workspace, answer)
    if session and turn is not None:
        record_turn(session, turn)
    return answer


async def _ask_in_rounds(
    state: ServerState,
    run: Callable[..., Answer],
    ctx: Context,
    agent_run: AgentRun,
    remember: Callable[[Answer], Answer],
) -> AskResult | InputRequiredResult:
    """One round of `ask` on a 2026-07-28 connection: replay the client's replies
    so far, and either answer or ask the client for the next completion."""
    from mcp_server.sampling import (
        RECORDED_REPLIES,
        RecordedReply,
        ReplayedSamplingChatModel,
        fingerprint,
    )

    replies = _replies_so_far(ctx)
    model = ReplayedSamplingChatModel(replies=replies)
    answer = await agent_run.run(functools.partial(run, chat_model=model))
    pending = model.pending
    if pending is None:
        return _result(state, remember(answer))
    replies.append(RecordedReply(fingerprint=fingerprint(pending), text=""))
    return InputRequiredResult(
        input_requests={REPLY_KEY: CreateMessageRequest(params=pending)},
        request_state=RECORDED_REPLIES.dump_json(replies).decode(),
    )


def _replies_so_far(ctx: Context) -> list[RecordedReply]:
    """The replies recorded in the request state, the last one completed by the
    client's response to it (a state without a response starts over)."""
    from mcp_server.sampling import RECORDED_REPLIES, reply_text

    if not ctx.request_state:
        return []
    try:
        replies = RECORDED_REPLIES.validate_json(ctx.request_state)
    except ValidationError:
        return []
    response = (ctx.input_responses or {}).get(REPLY_KEY)
    if not replies or not isinstance(response, CreateMessageResult):
        return []
    replies[-1] = replies[-1].model_copy(
        update={"text": reply_text(response), "model": response.model}
    )
    return replies


def _result(state: ServerState, answer: Answer) -> AskResult:
    if answer.error is not None and not answer.answer:
        tried = f"\nlast code tried:\n{answer.code}" if answer.code else ""
        raise AgentFoundNoAnswer(f"no answer: {answer.error.type}: {answer.error.message}{tried}")
    capped = cap_rows(answer.answer, state.settings.max_rows, state.settings.max_chars)
    text_limit = state.settings.max_chars // TRACE_TEXT_SHARE
    return AskResult(
        **answer.model_dump(exclude={"answer", "trace"}),
        answer=capped.rows,
        trace=[_shortened(event, text_limit) for event in answer.trace],
        total_rows=len(answer.answer),
        truncated=capped.truncated,
    )


def _shortened(event: TraceEvent, limit: int) -> TraceEvent:
    """`event` with each text detail (code, feedback, errors) cut to `limit` characters."""
    detail = {
        key: cap_text(value, limit) if isinstance(value, str) else value
        for key, value in event.detail.items()
    }
    return event.model_copy(update={"detail": detail})


def _client_samples(ctx: Context) -> bool:
    capabilities = ctx.client_capabilities
    return capabilities is not None and capabilities.sampling is not None


def _progress_reporter(ctx: Context, agent_run: AgentRun) -> Callable[[TraceEvent], None]:
    """A callback for the agent's events (in its thread) that reports each as
    progress; it stops the agent once the call has ended."""
    count = 0

    def report(event: TraceEvent) -> None:
        nonlocal count
        count += 1
        agent_run.call_on_loop(ctx.report_progress, count, None, event.one_line())

    return report


def import_agent() -> Callable[..., Answer]:
    """Pandora's agent (`agent.ask`) and the sampling models, imported on first
    use: the server answers its handshake without them."""
    import mcp_server.sampling  # noqa: F401 - LangChain, for the client's model
    from agent.api import ask as agent_ask

    return agent_ask


def register_ask(server: MCPServer) -> None:
    """Add `ask` to `server`: read-only, but it may call an LLM outside this machine."""
    add_tool(
        server,
        ask,
        ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True),
    )
