"""The generate_code node: one LLM call, its reply read as reasoning + code."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.answer import AnswerError
from agent.chat import LLMCallError, complete
from agent.context import AgentContext
from agent.data_text import boxes_as_text
from agent.events import context_of, emit
from agent.llm import configured_chat_model
from agent.model_defaults import ReplyFormat
from agent.parsing import (
    DIRECT_ANSWER_SCHEMA,
    REPLY_SCHEMA,
    UnparsableReply,
    parse_direct_answer,
    parse_reply,
)
from agent.planning import plan_boxes
from agent.prompts import FENCED_REPLY_END, code_messages, direct_answer_messages
from agent.state import AgentState, Attempt
from agent.workspaces import workspace_of
from plugins import get_registry


def generate_code(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Prompt the LLM (instruction, schema, demonstrations, question, then the
    feedback of earlier attempts) and read its reply. A reply with no code is
    an attempt whose feedback says so; an LLM that does not answer ends the run."""
    context = context_of(runtime)
    plan = state["plan"]
    assert plan is not None  # plan always runs first
    chain = state.get("chain", 0)
    temperature = state.get("temperature", 0.0)
    reply_schema: dict[str, Any] | None
    stop: tuple[str, ...] = ()
    reply_format = context.reply_format_in_use(plan.representation)
    if context.direct_answer:
        messages = direct_answer_messages(
            data_text=_data_text(state, context), question=state["question"]
        )
        reply_schema = DIRECT_ANSWER_SCHEMA
    else:
        messages = code_messages(
            representation=plan.representation,
            instruction=plan.instruction,
            schema_text=plan.schema_text,
            demonstrations=state.get("demonstrations") or [],
            question=state["question"],
            earlier_turns=state.get("earlier_turns") or [],
            feedback=[
                attempt.feedback
                for attempt in state["attempts"]
                if attempt.origin == "llm" and attempt.chain == chain and attempt.feedback
            ],
        )
        reply_schema = REPLY_SCHEMA if reply_format == "json" else None
        stop = (FENCED_REPLY_END,) if reply_schema is None else ()
    model = context.chat_model or configured_chat_model()
    try:
        reply = complete(
            model, messages, reply_schema, temperature=temperature, seed=chain, stop=stop
        )
    except LLMCallError as error:
        trace = emit(runtime, "generate_code", "llm_error", message=str(error))
        failure = AnswerError(type=error.error_type, message=str(error))
        return {"current": None, "llm_error": failure, "trace": trace}
    attempt = _attempt(
        reply.text, plan.representation, context.direct_answer, reply_format
    ).model_copy(update={"chain": chain, "representation": plan.representation})
    trace = emit(
        runtime,
        "generate_code",
        "code",
        attempt=len([a for a in state["attempts"] if a.origin != "cache"]) + 1,
        candidate=chain + 1,
        representation=plan.representation,
        temperature=temperature,
        reasoning=attempt.reasoning,
        code=attempt.code,
        problem=attempt.problem,
        prompt_tokens=reply.prompt_tokens,
        cached_prompt_tokens=reply.cached_prompt_tokens,
    )
    return {
        "current": attempt,
        "llm_calls": 1,
        "prompt_tokens": reply.prompt_tokens,
        "cached_prompt_tokens": reply.cached_prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "trace": trace,
    }


def route_after_generate(state: AgentState) -> Literal["execute", "reflect", "vote"]:
    """Code runs; an unreadable reply or a direct answer goes to reflect; an
    LLM failure goes to the vote, which answers with what it has."""
    current = state.get("current")
    if current is None:
        return "vote"
    if current.origin == "llm" and current.problem is None:
        return "execute"
    return "reflect"


def _attempt(text: str, representation: str, direct: bool, reply_format: ReplyFormat) -> Attempt:
    language = get_registry().representation(representation).language
    try:
        if direct:
            direct_reply = parse_direct_answer(text)
            return Attempt(
                origin="direct",
                reasoning=direct_reply.reasoning,
                result=[[value] for value in direct_reply.values],
                columns=["answer"],
            )
        parsed = parse_reply(text, language)
    except UnparsableReply as problem:
        message = str(problem)
        if reply_format != "json" and not direct:
            message = f"the reply held no code: write the code in one ```{language} block"
        return Attempt(origin="direct" if direct else "llm", code="", problem=message)
    return Attempt(reasoning=parsed.reasoning, code=parsed.code)


def _data_text(state: AgentState, context: AgentContext) -> str:
    """What the direct-answer baseline reads: the BOXes' rows when the
    representation has BOXes, else its schema text (KG2Code's shows the
    subgraph's triples)."""
    plan = state["plan"]
    assert plan is not None
    workspace = workspace_of(state["sources"], context.workspace)
    boxes = plan_boxes(plan, state["question"], workspace, context.joined_views_in_use())
    return boxes_as_text(boxes) if boxes else plan.schema_text
