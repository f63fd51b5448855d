"""The read_data node: once the first program is not sure of its answer, the
model reads tables small enough to show whole and answers directly,
greedily once and then at a temperature (one prompt, so llama.cpp's cache
pays for its data text once). The readings vote beside the programs
(`agent.voting`), which are always written too: a sure first program
answers without them, which on WikiTableQuestions halved the calls and
kept the answers (docs/evaluation.md, "Programs before readings"). On
small tables the local model reads better than it codes on lookups and
worse on arithmetic over many rows, where two readings can agree on a
wrong answer that the programs then outvote (docs/evaluation.md,
"Readings on by default"). Databases and
knowledge graphs are not read: there programs do far better than reading,
and their normalised rows (ids across tables) are what a model reads worst."""

from __future__ import annotations

from typing import Any, Literal

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
from agent.voting import tally
from agent.workspaces import workspace_of

READING_MAX_CHARACTERS = 6_000
"""About 2,000 tokens of data: past that, reading costs more prompt time
than a program and the model reads worse."""

USAGE_KEYS = ("llm_calls", "prompt_tokens", "cached_prompt_tokens", "completion_tokens")


def read_data(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Ask up to `reading_count()` times for the answer read from the data,
    when the sources are tables (not a database or a KG) that fit whole,
    stopping once `stop_votes` candidates (programs written so far or
    readings) agree; each reading joins the candidates with origin
    `reading`. A reply with no answer leaves no reading; an LLM that fails
    ends the reading, and the programs still answer. Sets `data_read`
    either way, so the data is read once a run."""
    context = context_of(runtime)
    plan = state["plan"]
    assert plan is not None  # plan always runs first
    count = context.reading_count()
    if plan.kind != "table" or count == 0:
        return {"data_read": True}
    data_text = _whole_data_text(state, context)
    if data_text is None:
        return {"data_read": True}
    messages = direct_answer_messages(data_text=data_text, question=state["question"])
    model = context.chat_model or configured_chat_model()
    written = state.get("candidates") or []
    update: dict[str, Any] = {"candidates": [], "trace": [], "data_read": True}
    usage = dict.fromkeys(USAGE_KEYS, 0)
    for number in range(count):
        temperature = 0.0 if number == 0 else context.sample_temperature
        try:
            reply = complete(
                model, messages, DIRECT_ANSWER_SCHEMA, temperature=temperature, seed=number
            )
        except LLMCallError as error:
            update["trace"] += emit(runtime, "read_data", "llm_error", message=str(error))
            break
        usage["llm_calls"] += 1
        usage["prompt_tokens"] += reply.prompt_tokens
        usage["cached_prompt_tokens"] += reply.cached_prompt_tokens
        usage["completion_tokens"] += reply.completion_tokens
        try:
            read = parse_direct_answer(reply.text)
        except UnparsableReply as problem:
            update["trace"] += emit(runtime, "read_data", "no_reading", problem=str(problem))
            continue
        reading = Candidate(
            representation=plan.representation,
            origin="reading",
            result=[[value] for value in read.values],
            columns=["answer"],
            reasoning=read.reasoning,
        )
        update["candidates"].append(reading)
        update["trace"] += emit(
            runtime, "read_data", "reading", answer=reading.result, reasoning=read.reasoning
        )
        agreeing = tally([*written, *update["candidates"]], state["question"]).votes
        if agreeing >= context.stop_votes:
            break  # the vote is decided: more readings could not change it
    return {**update, **usage}


def route_after_read(state: AgentState) -> Literal["vote", "retrieve_demonstrations"]:
    """Readings go to the vote; when none was added (the data is not read,
    or every reply failed), the candidate vote already chose is written."""
    candidates = state.get("candidates") or []
    read = bool(candidates) and candidates[-1].origin == "reading"
    return "vote" if read else "retrieve_demonstrations"


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
