"""The records the agent hands back: the `Answer` (a DESIGN.md contract) and
the node events of its trace."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, JsonValue

from plugins.knowledge_graph.focus_report import GraphFocus


class AnswerError(BaseModel):
    """Why no answer was found: an error type name and a one-line message."""

    type: str
    message: str


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
    answer at all; `focus` says what the question's entities were linked to
    in each KG (`plugins.knowledge_graph.focus_report.workspace_focus`),
    None without a KG.
    """

    answer: list[list[JsonValue]] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    reasoning: str = ""
    code: str = ""
    representation: str = ""
    attempts: int = 0
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    soft: bool = False
    error: AnswerError | None = None
    trace: list[TraceEvent] = Field(default_factory=list)
    focus: list[GraphFocus] | None = None


def _short(value: Any, limit: int = 160) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
