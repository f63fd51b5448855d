"""The typed state of the agent's graph.

Input keys (what a caller or a parent graph provides): `question`, `sources`,
and optionally `representation`, `entities`, `hops`, `earlier_turns` (a
session's last answered questions, `agent.sessions`). The nodes fill in the
rest; counters and the trace add up across nodes (reducers).
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, Field, JsonValue
from typing_extensions import TypedDict

from agent.answer import Answer, AnswerError, Candidate, TraceEvent
from agent.sessions import SessionTurn
from memory.models import ProgramCacheRecord
from plugins.model import Focus

if TYPE_CHECKING:
    from memory import Demonstration, ScoredDemonstration


class Plan(BaseModel):
    """What the plan node decided for the question."""

    representation: str
    kind: str
    """table, database or kg: the kind of the question (memory's `workspace_kind`)."""
    schema_text: str
    """The schema as the prompt shows it (after schema linking)."""
    schema_fingerprint: str
    """Fingerprint of the full structure-only schema (the program cache's key)."""
    instruction: str
    """The system instruction of the code prompt (`agent.prompts.code_instruction`)."""
    focus_entities: list[str] | None = None
    """The KG focus's entities as given (empty: linked from the question);
    None when no source is a KG."""
    topic_entities: list[str] = Field(default_factory=list)
    """The KG entities the focus resolved to, by name."""
    hops: int = 2
    linked_boxes: list[str] | None = None
    """BOXes kept by schema linking; None when the whole schema is shown."""

    def focus(self, question: str) -> Focus | None:
        """The KG focus programs run with (None without a KG)."""
        if self.focus_entities is None:
            return None
        return Focus(question=question, entities=tuple(self.focus_entities), hops=self.hops)


class ShownDemonstration(BaseModel):
    """A demonstration as the prompt shows it."""

    id: str
    question: str
    reasoning: str
    code: str
    representation: str
    score: float

    @classmethod
    def of(cls, item: Demonstration | ScoredDemonstration) -> ShownDemonstration:
        """The shown part of a memory demonstration (scored or not)."""
        from memory import ScoredDemonstration

        score = item.score if isinstance(item, ScoredDemonstration) else 1.0
        demonstration = item.demonstration if isinstance(item, ScoredDemonstration) else item
        return cls(
            id=demonstration.id,
            question=demonstration.question,
            reasoning=demonstration.reasoning,
            code=demonstration.code,
            representation=demonstration.representation,
            score=score,
        )


class CodeFailure(BaseModel):
    """A program's error as the executor reported it."""

    type: str
    message: str
    line: int | None = None


class Attempt(BaseModel):
    """One program (or one direct answer) and what became of it.

    `origin` says where the code came from: the LLM, the program cache, or a
    direct answer (the no-code baseline). `problem` is set when the LLM's reply
    could not be read as reasoning + code.
    """

    origin: Literal["llm", "cache", "direct"] = "llm"
    chain: int = 0
    """The candidate this attempt belongs to (each candidate is a chain of
    attempts: a program and its corrections)."""
    representation: str = ""
    reasoning: str = ""
    code: str = ""
    repairs: list[str] = Field(default_factory=list)
    """The names repair replaced in the program, as `old -> new`."""
    repair_tried: bool = False
    """Repair looked at this program's failure and could not fix it (or is off)."""
    before_ties: Attempt | None = None
    """The program as it ran before the tie rewrite (`agent.repair.sql_ties`),
    put back by repair when the rewrite fails, runs to nothing or loses its first row."""
    problem: str | None = None
    executed: bool = False
    result: list[list[JsonValue]] | None = None
    columns: list[str] = Field(default_factory=list)
    total_rows: int | None = None
    chart: str | None = None
    """The figure the program drew, as a base64 PNG."""
    error: CodeFailure | None = None
    feedback: str | None = None
    program_cache: ProgramCacheRecord | None = None
    """The stored demonstration a cached program came from."""


class AgentState(TypedDict):
    """The graph's state (see the module docstring for the input keys)."""

    question: str
    sources: list[str]
    representation: NotRequired[str | None]
    entities: NotRequired[list[str]]
    hops: NotRequired[int | None]
    earlier_turns: NotRequired[list[SessionTurn]]
    """The session's earlier answered questions, quoted in the prompt."""
    plan: NotRequired[Plan | None]
    """The plan of the route the current candidate is written in."""
    routes: NotRequired[list[Plan]]
    """The plan of every route candidates may be written in, by prior."""
    chain: NotRequired[int]
    """The number of the candidate being written (0 first)."""
    temperature: NotRequired[float]
    """The sampling temperature of the current candidate."""
    candidates: Annotated[list[Candidate], operator.add]
    demonstrations: NotRequired[list[ShownDemonstration]]
    current: NotRequired[Attempt | None]
    attempts: Annotated[list[Attempt], operator.add]
    llm_calls: Annotated[int, operator.add]
    prompt_tokens: Annotated[int, operator.add]
    cached_prompt_tokens: Annotated[int, operator.add]
    completion_tokens: Annotated[int, operator.add]
    trace: Annotated[list[TraceEvent], operator.add]
    chain_done: NotRequired[bool]
    """Set by reflect: the current candidate is finished (its last attempt
    ran well, or it has no attempts left)."""
    data_read: NotRequired[bool]
    """Set by read_data: the model has been asked to read the data (or the
    run does not read), so vote goes on to the next candidate."""
    llm_error: NotRequired[AnswerError | None]
    """The LLM did not answer: no more candidates are written."""
    answer: NotRequired[Answer | None]


class AgentInput(TypedDict):
    """What a caller gives the graph."""

    question: str
    sources: list[str]
    representation: NotRequired[str | None]
    entities: NotRequired[list[str]]
    hops: NotRequired[int | None]
    earlier_turns: NotRequired[list[SessionTurn]]


class AgentOutput(TypedDict):
    """What the graph hands back: the Answer."""

    answer: Answer | None


def initial_state(
    question: str,
    sources: list[str],
    representation: str | None = None,
    entities: list[str] | None = None,
    hops: int | None = None,
    earlier_turns: list[SessionTurn] | None = None,
) -> dict[str, Any]:
    """The input of one run."""
    return {
        "question": question,
        "sources": sources,
        "representation": representation,
        "entities": list(entities or []),
        "hops": hops,
        "earlier_turns": list(earlier_turns or []),
    }
