"""The records the memory keeps: demonstrations and what retrieval returns.

`Demonstration` is a contract (DESIGN.md, "Data model"): the CLI, the MCP
server and the agent exchange it as JSON. The extra fields (`sources`,
`focus`, `negative`, `error`, `stale`) say where a demonstration ran and
whether it may still be shown to the LLM; `origin` says who stored it (the
command line, an MCP client, an imported file or a dataset build), which
bounds how far its `verified` can be trusted.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from memory.fingerprints import demonstration_id

Verification = Literal["gold", "approved", "executed", "unverified"]
VERIFICATIONS: tuple[Verification, ...] = ("gold", "approved", "executed", "unverified")

# How much each way of verifying is trusted: a gold answer beats a person's
# approval, which beats "it ran and returned something".
VERIFICATION_RANK: dict[Verification, int] = {
    "gold": 3,
    "approved": 2,
    "executed": 1,
    "unverified": 0,
}

Origin = Literal["cli", "mcp", "import", "build"]
ORIGINS: tuple[Origin, ...] = ("cli", "mcp", "import", "build")
# Who stored a demonstration. Records written before origins were kept read
# as `import`: the least trusted an origin can be after the fact.
LEGACY_ORIGIN: Origin = "import"

# The best verification each origin can hold. An MCP client or an imported
# file supplies its own code and its own expected answer, so matching it
# proves only that the code ran and returned rows (see docs/mcp.md, "Trust").
ORIGIN_CEILING: dict[Origin, Verification] = {
    "cli": "gold",
    "build": "gold",
    "import": "executed",
    "mcp": "executed",
}

# Between two copies of one demonstration verified alike, the one whose
# origin is trusted more is kept.
ORIGIN_TRUST: dict[Origin, int] = {"cli": 3, "build": 2, "import": 1, "mcp": 0}

Kind = Literal["table", "database", "kg"]
KINDS: tuple[Kind, ...] = ("table", "database", "kg")
RetrievalMode = Literal["cross", "same", "random"]


class FocusSpec(BaseModel):
    """The part of a knowledge graph a demonstration was shown (entities, hops)."""

    model_config = ConfigDict(extra="forbid")

    entities: list[str] = Field(default_factory=list)
    hops: int = 2


class Demonstration(BaseModel):
    """One worked example: a question, the schema it was asked over, the
    reasoning and code that answered it, and the answer that code returned.

    `id` is always derived from the normalised question, code and
    representation (an `id` given in input is replaced), so the same
    demonstration added twice is stored once. A `negative`
    demonstration is a failed attempt kept for analysis: it is never
    retrieved as an example to imitate.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, serialize_by_alias=True)

    id: str = ""
    question: str = Field(min_length=1)
    kind: Kind
    representation: str = Field(min_length=1)
    schema_: str = Field(default="", alias="schema")
    schema_fingerprint: str = ""
    reasoning: str = ""
    code: str = Field(min_length=1)
    # Rows of JSON values, as the executor returns them (older stores hold
    # strings; `memory.verification.answers_match` compares both alike).
    answer: list[list[JsonValue]] = Field(default_factory=list)
    dataset: str = ""
    verified: Verification = "unverified"
    origin: Origin = LEGACY_ORIGIN
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    sources: list[str] = Field(default_factory=list)
    focus: FocusSpec | None = None
    negative: bool = False
    error: str | None = None
    stale: bool = False

    @model_validator(mode="after")
    def _derive_id(self) -> Demonstration:
        # Always derived, never trusted from input: dedup depends on it.
        self.id = demonstration_id(self.question, self.code, self.representation)
        ceiling = ORIGIN_CEILING[self.origin]
        if VERIFICATION_RANK[self.verified] > VERIFICATION_RANK[ceiling]:
            self.verified = ceiling
        return self

    @property
    def retrievable(self) -> bool:
        """Whether this may be shown to the LLM as an example to follow."""
        return not self.negative and not self.stale

    @property
    def keep_rank(self) -> tuple[int, int]:
        """Which of two copies of this demonstration to keep: the better
        verified, then the one from the more trusted origin."""
        return VERIFICATION_RANK[self.verified], ORIGIN_TRUST[self.origin]

    def to_json_line(self) -> str:
        """One line of JSONL, as `pandora memory export` writes it."""
        return self.model_dump_json(by_alias=True)


class ScoredDemonstration(BaseModel):
    """A retrieved demonstration and its cosine similarity to the question."""

    demonstration: Demonstration
    score: float

    def summary(self) -> dict[str, object]:
        """The fields `pandora memory search --json` prints for one hit."""
        demo = self.demonstration
        return {
            "id": demo.id,
            "question": demo.question,
            "kind": demo.kind,
            "representation": demo.representation,
            "code": demo.code,
            "score": round(self.score, 6),
            "verified": demo.verified,
        }


class ProgramCacheRecord(BaseModel):
    """Which stored demonstration answered a question from the program cache."""

    id: str
    origin: Origin
