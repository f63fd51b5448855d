"""What the tools return: pydantic models, so clients get output schemas and
structured content. Inputs are the tools' annotated parameters (see
`mcp_server.parameters`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue

SourceStatus = Literal["loading", "ready", "failed"]


class SourceInfo(BaseModel):
    """One configured source and what can be done with it."""

    name: str
    kind: str | None = Field(description="table, database or kg; null until loaded")
    plugin: str | None = Field(description="the loader that opened it")
    status: SourceStatus
    error: str | None = Field(default=None, description="why it failed to load")
    representations: list[str] = Field(
        default_factory=list, description="representations its schema can be shown in"
    )
    needs_focus: bool = Field(
        default=False,
        description="a knowledge graph: pass `entities` (or `question`) to see or query it",
    )


class SourceList(BaseModel):
    """Every configured source; `loading` is true while some are still loading."""

    sources: list[SourceInfo]
    loading: bool


class SourceSchema(BaseModel):
    """The schema of one source as the LLM should see it in one representation."""

    source: str
    kind: str
    representation: str
    schema_text: str = Field(description="the schema as code: pandas BOXes, DDL or NetworkX")
    boxes: list[str] = Field(
        default_factory=list,
        description="pandas only: the BOX names, the variables your pandas code can use",
    )


class Rows(BaseModel):
    """Rows of JSON values, capped so one answer cannot flood a context window."""

    columns: list[str]
    rows: list[list[JsonValue]]
    total_rows: int = Field(description="rows before any cap")
    truncated: bool = Field(description="true when rows or characters were cut")


class BoxPreview(Rows):
    """The first rows of one BOX."""

    source: str
    box: str


class RunResult(Rows):
    """What a program (pandas, NetworkX or SQL) returned."""

    stdout: str = Field(default="", description="what the program printed")
    elapsed_ms: float


class DemonstrationHit(BaseModel):
    """A verified worked example similar to the question, to imitate."""

    id: str
    question: str
    kind: str
    representation: str
    reasoning: str
    code: str
    answer: list[list[JsonValue]]
    verified: str
    origin: str = Field(description="who stored it: cli, mcp, import or build")
    score: float = Field(description="cosine similarity to the question")


class DemonstrationHits(BaseModel):
    """The demonstrations found, best first."""

    demonstrations: list[DemonstrationHit]


class AddedDemonstration(BaseModel):
    """A demonstration stored after its code ran and earned a verification."""

    id: str
    verified: str = Field(description="executed: an MCP client's demonstration is never gold")
    added: bool = Field(description="false when the same demonstration was already stored")
    answer: list[list[JsonValue]]
