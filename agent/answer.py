"""The records the agent hands back: the `Answer` (a DESIGN.md contract) and
the node events of its trace."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, JsonValue

from memory.models import ProgramCacheRecord
from plugins.knowledge_graph.focus_report import GraphFocus


class AnswerError(BaseModel):
    """Why no answer was found: an error type name and a one-line message."""

    type: str
    message: str


class Candidate(BaseModel):
    """One candidate program of a question and what it gave: the vote counts
    candidates whose results are equal (`agent.voting`).

    `origin` is `greedy` (a route's first program, temperature 0), `sample`
    (a later one, at a temperature), `cache` (the program cache), `direct`
    (the no-code baseline's answer) or `reading` (the model's answer read
    from data shown whole: a witness that votes for the programs it
    matches, `agent.nodes.read`). `flagged` says the result ran but looked
    wrong to execution guidance (no rows, a shape the question contradicts):
    such a result counts half a vote.
    """

    representation: str
    code: str = ""
    origin: Literal["greedy", "sample", "cache", "direct", "reading"] = "greedy"
    result: list[list[JsonValue]] | None = None
    columns: list[str] = Field(default_factory=list)
    error: AnswerError | None = None
    flagged: bool = False
    attempts: int = 1
    """Programs the LLM wrote for this candidate: 1 when its first one ran
    without feedback, more when it was corrected."""
    reasoning: str = ""
    chart: str | None = Field(default=None, exclude=True)
    """The figure the program drew (a base64 PNG); carried to the Answer only."""


class TraceEvent(BaseModel):
    """One thing a node did, as `--trace` shows it: the node's name, what
    happened (`plan`, `demonstrations`, `code`, `execution`, `feedback`, ...)
    and the details that matter to a person reading along."""

    node: str
    event: str
    detail: dict[str, Any] = Field(default_factory=dict)

    def one_line(self) -> str:
        """The event as one line of text for stderr."""
        parts = [f"{key}={_short(value)}" for key, value in self.detail.items()]
        return f"[{self.node}] {self.event}: " + " ".join(parts)


class Answer(BaseModel):
    """The answer to one question (DESIGN.md, "Data model").

    `answer` holds rows of JSON values (numbers stay numbers, missing is
    null) named by `columns`; `soft` marks a KG2Code answer read from the
    code's last comment because no code ran; `error` is set when there is no
    answer at all. `candidates` are the programs written for the question;
    `votes` is how many of them gave the answer, and `agreement` that share
    of the candidates that ran (None when none ran): the answer's confidence.
    `prompt_tokens` counts every prompt token sent; `cached_prompt_tokens`
    of them the server took from its prompt cache (`agent.chat`), so
    `prompt_tokens - cached_prompt_tokens` is what it computed.
    `program_cache` names the stored demonstration whose program answered
    with no LLM call (None when the LLM's code answered); `focus` says what
    the question's entities were linked to in each KG
    (`plugins.knowledge_graph.focus_report.workspace_focus`), None without a KG.
    """

    answer: list[list[JsonValue]] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    reasoning: str = ""
    code: str = ""
    representation: str = ""
    attempts: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    soft: bool = False
    error: AnswerError | None = None
    candidates: list[Candidate] = Field(default_factory=list)
    votes: int = 0
    agreement: float | None = None
    program_cache: ProgramCacheRecord | None = None
    focus: list[GraphFocus] | None = None
    chart: str | None = None
    """The figure the answering program drew, as a base64 PNG (None: no figure)."""
    trace: list[TraceEvent] = Field(default_factory=list)


def _short(value: Any, limit: int = 160) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
