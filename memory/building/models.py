"""What the memory builder reads, asks for and reports."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue

Outcome = Literal["translated", "annotated", "rejected", "untranslatable", "failed"]


class BuildSample(BaseModel):
    """One labelled question: its sources and either a gold SQL query (stage 1) or a
    gold answer (stage 2, tables and knowledge graphs)."""

    id: str
    question: str
    sources: list[str]
    dataset: str = ""
    gold_sql: str | None = None
    gold_answer: list[list[JsonValue]] | None = None
    entities: list[str] = Field(default_factory=list)
    plugin: str | None = None
    """The loader of the sources when their extension does not say (KG triples)."""


class Annotation(BaseModel):
    """What the LLM wrote for a sample (through the agent) and what it cost."""

    code: str = ""
    reasoning: str = ""
    representation: str = "pandas"
    answer: list[list[JsonValue]] = Field(default_factory=list)
    llm_calls: int = 0
    tokens: int = 0
    error: str | None = None


class JournalEntry(BaseModel):
    """One finished sample, one line of the build journal (what makes a build resumable)."""

    id: str
    stage: int
    outcome: Outcome
    demonstration_id: str | None = None
    llm_calls: int = 0
    tokens: int = 0
    detail: str = ""


class BuildReport(BaseModel):
    """Counts of one build run (samples skipped because a journal had them included)."""

    total: int = 0
    skipped: int = 0
    translated: int = 0
    annotated: int = 0
    rejected: int = 0
    untranslatable: int = 0
    failed: int = 0
    llm_calls: int = 0
    tokens: int = 0
    seconds: float = 0.0
    stopped_by: str | None = None
    """Which budget ended the run early (`llm_calls`, `tokens`, `seconds`), if any."""
