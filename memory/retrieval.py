"""Retrieving demonstrations for a question.

Three modes, as in the Pandora paper's ablations (its Table 4):
- `cross` (default): the K most similar demonstrations from every task, so a
  table question may borrow a knowledge-graph demonstration;
- `same`: the K most similar among demonstrations of the question's own
  kind (table, database or kg);
- `random`: K demonstrations drawn at random (seeded by the question, so the
  same question draws the same ones).

Negative (failed) and stale demonstrations are never returned.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np

from memory.fingerprints import question_key
from memory.models import (
    VERIFICATION_RANK,
    Demonstration,
    RetrievalMode,
    ScoredDemonstration,
    Verification,
)
from memory.settings import MemorySettings
from memory.store import DemonstrationStore
from plugins.errors import BadInputError

DEFAULT_K = 5
OVERFETCH = 10
MIN_OVERFETCH = 100
EXACT_LIMIT = 5000
MODES: tuple[RetrievalMode, ...] = ("cross", "same", "random")


def retrieve_demonstrations(
    question: str,
    k: int = DEFAULT_K,
    *,
    kind: str | None = None,
    mode: RetrievalMode = "cross",
    representation: str | None = None,
    store: DemonstrationStore | None = None,
) -> list[ScoredDemonstration]:
    """The K demonstrations to show the LLM for `question`, best first.

    This is the agent's one call. `kind` is the kind of the question's source
    (`table`, `database`, `kg`): `same` mode keeps that kind only, `cross`
    mode ignores it. `representation` keeps demonstrations written for one
    representation only. The store is the configured one unless given.
    """
    return search_demonstrations(
        store or default_store(),
        question,
        k,
        kind=kind,
        mode=mode,
        representation=representation,
    )


@cache
def _store_for(settings: MemorySettings) -> DemonstrationStore:
    return DemonstrationStore.open(settings)


def default_store() -> DemonstrationStore:
    """The store the environment configures, opened once per process."""
    return _store_for(MemorySettings.from_env())


def search_demonstrations(
    store: DemonstrationStore,
    question: str,
    k: int = 10,
    *,
    kind: str | None = None,
    mode: RetrievalMode = "cross",
    representation: str | None = None,
    dataset: str | None = None,
    min_verified: Verification = "unverified",
) -> list[ScoredDemonstration]:
    """Search `store` for `question` (see the module docstring for modes).

    Filters (kind in `same` mode, representation, dataset, minimum
    verification) are applied to an over-fetched unfiltered neighbourhood
    first, and only when that leaves fewer than `k` does Chroma run the much
    slower filtered query.
    """
    if mode not in MODES:
        raise BadInputError(f"unknown retrieval mode {mode!r}; use one of {', '.join(MODES)}")
    if mode == "same" and not kind:
        raise BadInputError("retrieval mode 'same' needs the question's kind (--kind)")
    if k < 1:
        raise BadInputError(f"k must be at least 1, not {k}")
    if min_verified not in VERIFICATION_RANK:
        raise BadInputError(f"unknown verification level {min_verified!r}")
    wanted = _wanted_metadata(kind if mode == "same" else None, representation, dataset)
    min_rank = VERIFICATION_RANK[min_verified]
    vector = store.embed_questions([question], query=True)[0]
    if mode == "random":
        return _random_demonstrations(store, question, vector, k, _where(wanted, min_rank))
    if not wanted and not min_rank:
        hits = [(h.demonstration, h.score) for h in store.nearest(vector, k)]
    else:
        neighbourhood = max(k * OVERFETCH, MIN_OVERFETCH)
        hits = [
            (h.demonstration, h.score)
            for h in store.nearest(vector, neighbourhood)
            if _matches(h.metadata, wanted, min_rank)
        ]
        if len(hits) < k and store.retrievable_count() > neighbourhood:
            hits = _filtered_nearest(store, vector, k, _where(wanted, min_rank))
    return [ScoredDemonstration(demonstration=d, score=score) for d, score in hits[:k]]


def _filtered_nearest(
    store: DemonstrationStore, vector: np.ndarray, k: int, where: dict[str, Any] | None
) -> list[tuple[Demonstration, float]]:
    """The K nearest records matching `where`, exactly when few match.

    Chroma's filtered HNSW search can miss the only matching records of a
    very selective filter, so up to EXACT_LIMIT matches are ranked here by
    exact cosine similarity; beyond that, Chroma's filtered query is used.
    """
    ids = store.retrievable_ids(where, limit=EXACT_LIMIT + 1)
    if len(ids) > EXACT_LIMIT:
        return [(h.demonstration, h.score) for h in store.nearest(vector, k, where)]
    return _ranked(store, vector, ids, k)


def _ranked(
    store: DemonstrationStore, vector: np.ndarray, ids: list[str], k: int
) -> list[tuple[Demonstration, float]]:
    """The best `k` of `ids` by exact cosine similarity to `vector`."""
    vectors = store.retrievable_vectors(ids)
    scores = sorted(
        ((float(stored @ vector), record_id) for record_id, stored in vectors.items()),
        reverse=True,
    )[:k]
    demonstrations = store.retrievable_demonstrations([record_id for _, record_id in scores])
    return [(demonstrations[record_id], score) for score, record_id in scores]


def _random_demonstrations(
    store: DemonstrationStore,
    question: str,
    vector: np.ndarray,
    k: int,
    where: dict[str, Any] | None,
) -> list[ScoredDemonstration]:
    store.require_matching_embedding()
    ids = sorted(store.retrievable_ids(where))
    chosen = random.Random(question_key(question)).sample(ids, min(k, len(ids)))
    return [
        ScoredDemonstration(demonstration=demonstration, score=score)
        for demonstration, score in _ranked(store, vector, chosen, k)
    ]


def _wanted_metadata(
    kind: str | None, representation: str | None, dataset: str | None
) -> dict[str, str]:
    wanted = {"kind": kind, "representation": representation, "dataset": dataset}
    return {key: value for key, value in wanted.items() if value}


def _matches(metadata: dict[str, Any], wanted: dict[str, str], min_rank: int) -> bool:
    if int(metadata.get("verified_rank", 0)) < min_rank:
        return False
    return all(metadata.get(key) == value for key, value in wanted.items())


def _where(wanted: dict[str, str], min_rank: int) -> dict[str, Any] | None:
    conditions: list[dict[str, Any]] = [{key: value} for key, value in wanted.items()]
    if min_rank:
        conditions.append({"verified_rank": {"$gte": min_rank}})
    if not conditions:
        return None
    return conditions[0] if len(conditions) == 1 else {"$and": conditions}
