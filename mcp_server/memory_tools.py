"""The memory tools: find worked examples to imitate, and store new ones.

A demonstration is stored only after its code ran on the sources (through the
executor) and returned rows, or the expected answer when one is given. It is
stored with origin `mcp` and verified `executed` at most: the client wrote
both the code and the answer it matched, so the program cache never serves
it (docs/mcp.md, "Trust"). Text over the memory's size caps is refused.
"""

from __future__ import annotations

import functools
from typing import Literal

import anyio
from mcp.server.mcpserver import Context

from mcp_server.calls import loaded_state
from mcp_server.models import AddedDemonstration, DemonstrationHit, DemonstrationHits
from mcp_server.parameters import (
    Code,
    Entities,
    ExpectedAnswer,
    Hops,
    Question,
    Representation,
    SourceNames,
)
from memory import FocusSpec, ScoredDemonstration
from memory import search_demonstrations as search_store
from memory.verification import build_demonstration
from plugins.errors import BadInputError, PandoraError

MAX_K = 20


class DemonstrationRefused(PandoraError):
    """The demonstration's code failed, returned nothing or gave another answer."""


async def search_demonstrations(
    question: Question,
    ctx: Context,
    k: int = 5,
    kind: Literal["table", "database", "kg"] | None = None,
    representation: str | None = None,
    mode: Literal["cross", "same"] = "cross",
) -> DemonstrationHits:
    """Find verified worked examples (question, reasoning, code, answer) similar to a question.

    Use it before writing code: imitating a demonstration that answered a similar
    question, even over another kind of source, often gets the code right first time.
    `k` is at most 20; `representation` keeps examples written as pandas, sql or
    networkx code; mode 'same' keeps only examples over sources of `kind`.
    Example: search_demonstrations(question="Which artist released the most albums?", k=3).
    """
    if not 1 <= k <= MAX_K:
        raise BadInputError(f"k={k}: choose between 1 and {MAX_K}")
    state = await loaded_state(ctx)
    search = functools.partial(
        search_store,
        k=k,
        kind=kind,
        mode=mode,
        representation=representation,
    )
    store = await anyio.to_thread.run_sync(state.store)
    hits = await anyio.to_thread.run_sync(search, store, question)
    return DemonstrationHits(demonstrations=[_hit(scored) for scored in hits])


async def add_demonstration(
    question: Question,
    code: Code,
    sources: SourceNames,
    ctx: Context,
    representation: Representation = "pandas",
    reasoning: str = "",
    expected_answer: ExpectedAnswer = None,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: Hops = 2,
) -> AddedDemonstration:
    """Store a worked example in Pandora's memory, after running its code to verify it.

    Use it when code you wrote answered a question correctly, so later questions can
    imitate it. The code runs on `sources` first: it is stored only if it succeeds and
    returns rows (and equals `expected_answer` when given). It is shown to later
    questions as an example, never run in place of one. Limits: question 1,000
    characters, reasoning 4,000, code 8,000. Returns the stored `id`, `verified`
    ('executed') and `answer`.
    Example: add_demonstration(question="How many albums are there?",
    code="result = len(album)", sources=["music"], reasoning="count the album rows").
    """
    state = await loaded_state(ctx)
    workspace = state.catalog.workspace(sources)
    build = functools.partial(
        build_demonstration,
        question=question,
        code=code,
        locations=[source.location for source in workspace.sources],
        representation=representation,
        origin="mcp",
        reasoning=reasoning,
        focus=FocusSpec(entities=list(entities), hops=hops) if entities else None,
        expected=expected_answer,
    )
    async with state.gate.slot():
        demonstration, outcome = await anyio.to_thread.run_sync(build)
    if not outcome.passed:
        raise DemonstrationRefused(f"not stored: {outcome.problem}")
    store = await anyio.to_thread.run_sync(state.store)
    stored = await anyio.to_thread.run_sync(store.add, demonstration)
    return AddedDemonstration(
        id=stored.id, verified=stored.verified, added=stored.added, answer=demonstration.answer
    )


def _hit(scored: ScoredDemonstration) -> DemonstrationHit:
    demonstration = scored.demonstration
    return DemonstrationHit(
        id=demonstration.id,
        question=demonstration.question,
        kind=demonstration.kind,
        representation=demonstration.representation,
        reasoning=demonstration.reasoning,
        code=demonstration.code,
        answer=demonstration.answer,
        verified=demonstration.verified,
        origin=demonstration.origin,
        score=round(scored.score, 6),
    )
