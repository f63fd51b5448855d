"""The read_data node: before any program is written, the model reads a
table small enough to show whole and answers directly. The reading is a witness
in the vote (`agent.voting`): it adds its vote to the programs whose result
it matches, never answers on its own, and is the soft answer when no
program ran. On small tables the local model read better than it coded
(docs/evaluation.md, "Reading as a witness", with how little that
measurement covers). Databases and knowledge
graphs are not read: there programs do far better than reading, and their
normalised rows (ids across tables) are what a model reads worst."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.answer import Candidate
from agent.chat import LLMCallError, complete
from agent.context import AgentContext
from agent.data_text import whole_boxes_as_text
from agent.events import context_of, emit
from agent.llm import configured_chat_model
from agent.parsing import DIRECT_ANSWER_SCHEMA, UnparsableReply, parse_direct_answer
from agent.planning import plan_boxes
from agent.prompts import direct_answer_messages
from agent.state import AgentState
from agent.workspaces import workspace_of

READING_MAX_CHARACTERS = 6_000
"""About 2,000 tokens of data: past that, reading costs more prompt time
than a program and the model reads worse."""


def read_data(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Ask for the answer read from the data when the run reads, the sources
    are tables (not a database or a KG) and they fit whole; the reading
    joins the candidates with origin `reading`.
    A reply with no answer, or an LLM that fails, leaves no reading: the
    programs still answer."""
    context = context_of(runtime)
    plan = state["plan"]
    assert plan is not None  # plan always runs first
    if plan.kind != "table" or not context.reading_in_use():
        return {}
    data_text = _whole_data_text(state, context)
    if data_text is None:
        return {}
    messages = direct_answer_messages(data_text=data_text, question=state["question"])
    model = context.chat_model or configured_chat_model()
    try:
        reply = complete(model, messages, DIRECT_ANSWER_SCHEMA)
    except LLMCallError as error:
        return {"trace": emit(runtime, "read_data", "llm_error", message=str(error))}
    usage = {
        "llm_calls": 1,
        "prompt_tokens": reply.prompt_tokens,
        "cached_prompt_tokens": reply.cached_prompt_tokens,
        "completion_tokens": reply.completion_tokens,
    }
    try:
        read = parse_direct_answer(reply.text)
    except UnparsableReply as problem:
        return {**usage, "trace": emit(runtime, "read_data", "no_reading", problem=str(problem))}
    reading = Candidate(
        representation=plan.representation,
        origin="reading",
        result=[[value] for value in read.values],
        columns=["answer"],
        reasoning=read.reasoning,
    )
    trace = emit(runtime, "read_data", "reading", answer=reading.result, reasoning=read.reasoning)
    return {**usage, "candidates": [reading], "trace": trace}


def _whole_data_text(state: AgentState, context: AgentContext) -> str | None:
    """The rows of every table the sources have (joined views left out: they
    repeat their tables), or None when they do not all fit or schema linking
    cut the schema (the data is then far too big to read)."""
    plan = state["plan"]
    assert plan is not None
    if plan.linked_boxes is not None:
        return None
    workspace = workspace_of(state["sources"], context.workspace)
    boxes = plan_boxes(plan, state["question"], workspace, joined_views=False)
    return whole_boxes_as_text(boxes, READING_MAX_CHARACTERS)
