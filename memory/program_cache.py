"""The program cache: answering a question again with a stored program, no LLM.

A stored program answers later questions with no model in the loop, so only
programs this machine's user vouched for are served (docs/mcp.md, "Trust"):
- origin `cli` (a person added it with `pandora memory add`, or approved an
  answer with `pandora ask --save`), verified `executed` or better;
- origin `build` (a dataset build kept it because it reproduced the
  dataset's own gold answer), verified `gold`.
Nothing an MCP client added or a file imported is served, and nothing from a
shared Chroma server (anyone reaching it can write any record).

Before it is served, the program is run again and must return the answer it
recorded: one whose answer changed (new data, or code that behaves
differently later) is not served, and the question goes to the LLM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import JsonValue

from memory.fingerprints import question_key
from memory.models import ORIGIN_TRUST, VERIFICATION_RANK, Demonstration
from memory.store import DemonstrationStore
from memory.verification import answers_match

Rerun = Callable[[Demonstration], list[list[JsonValue]] | None]
"""Runs a demonstration's code on the question's sources (in the executor) and
returns its rows, or None when it failed."""


@dataclass(frozen=True)
class CachedProgram:
    """A stored program served for a question, and the rows its rerun returned."""

    demonstration: Demonstration
    rows: list[list[JsonValue]]


def serves_program_cache(demonstration: Demonstration) -> bool:
    """Whether this record's origin and verification let it answer with no LLM."""
    if not demonstration.retrievable or not demonstration.answer:
        return False
    if demonstration.origin == "cli":
        return VERIFICATION_RANK[demonstration.verified] >= VERIFICATION_RANK["executed"]
    if demonstration.origin == "build":
        return demonstration.verified == "gold"
    return False


def cached_program_candidates(
    store: DemonstrationStore,
    question: str,
    schema_fingerprint: str,
    representation: str | None = None,
) -> list[Demonstration]:
    """The programs the cache may serve for exactly this question (normalised:
    `memory.fingerprints.normalise_question`) on exactly this schema, best
    first: the user's own before a build's, better verified, then newer.

    One equality lookup on the question's key (fast in Chroma); the other
    conditions are checked here. A shared store serves none.
    """
    if store.shared:
        return []
    candidates = [
        demonstration
        for demonstration in store.find(
            {"question_key": question_key(question)}, retrievable_only=True
        )
        if demonstration.schema_fingerprint == schema_fingerprint
        and representation in (None, demonstration.representation)
        and serves_program_cache(demonstration)
    ]
    return sorted(
        candidates,
        key=lambda d: (ORIGIN_TRUST[d.origin], VERIFICATION_RANK[d.verified], d.created_at),
        reverse=True,
    )


def find_cached_program(
    store: DemonstrationStore,
    question: str,
    schema_fingerprint: str,
    representation: str | None = None,
) -> Demonstration | None:
    """The best program the cache may serve for this question, not yet re-run
    (`serve_cached_program` re-runs it), or None."""
    candidates = cached_program_candidates(store, question, schema_fingerprint, representation)
    return candidates[0] if candidates else None


def serve_cached_program(
    store: DemonstrationStore,
    question: str,
    schema_fingerprint: str,
    representation: str | None,
    rerun: Rerun,
) -> CachedProgram | None:
    """The best candidate whose rerun returns the answer it recorded, or None.

    A candidate that fails or answers differently now is skipped (and left in
    the store as it is: the data may simply have changed since).
    """
    for demonstration in cached_program_candidates(
        store, question, schema_fingerprint, representation
    ):
        rows = rerun(demonstration)
        if rows is not None and answers_match(rows, demonstration.answer):
            return CachedProgram(demonstration, rows)
    return None
