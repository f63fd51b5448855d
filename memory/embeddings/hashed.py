"""Hashed word and character n-grams (the lexical half of the default embedding).

It needs no model and no network, gives the same vector for the same text in
every process and on every machine, and is fast enough to embed 100,000
questions in seconds. Words and word pairs carry the reasoning pattern ("how
many", "the most", "not in"); character n-grams make "cities" close to
"city" and survive typos.
"""

from __future__ import annotations

import itertools
import re
import zlib
from collections.abc import Sequence

import numpy as np

_WORD = re.compile(r"<\w+>|\w+", re.UNICODE)

WORD_WEIGHT = 1.0
BIGRAM_WEIGHT = 1.0
CHAR_WEIGHT = 0.35
CHAR_SIZES = (3, 4)


class HashedNgramEmbedding:
    """Feature hashing of word unigrams, word bigrams and character n-grams.

    Each feature is hashed (CRC-32, stable across processes) to one of
    `dimensions` buckets with a sign taken from another bit of the hash, so
    collisions cancel out on average; counts are damped (1 + log) and the
    vector is L2-normalised so that the dot product is the cosine.
    """

    def __init__(self, dimensions: int = 512):
        self.dimensions = dimensions
        self.name = f"hashed-ngrams-v1-{dimensions}"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text (searches and stored questions alike)."""
        matrix = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        for row, text in enumerate(texts):
            matrix[row] = self._embed_one(text)
        return matrix

    def _embed_one(self, text: str) -> np.ndarray:
        counts: dict[int, list[float]] = {}
        words = _WORD.findall(text.casefold())
        for word in words:
            _add(counts, "w:" + word, WORD_WEIGHT)
            padded = f"^{word}$"
            for size in CHAR_SIZES:
                for start in range(len(padded) - size + 1):
                    _add(counts, "c:" + padded[start : start + size], CHAR_WEIGHT)
        for first, second in itertools.pairwise(words):
            _add(counts, f"b:{first} {second}", BIGRAM_WEIGHT)
        vector = np.zeros(self.dimensions, dtype=np.float32)
        for hashed, (weight, occurrences) in counts.items():
            bucket = (hashed >> 1) % self.dimensions
            sign = 1.0 if hashed & 1 else -1.0
            vector[bucket] += sign * weight * (1.0 + np.log(occurrences))
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector


def _add(counts: dict[int, list[float]], feature: str, weight: float) -> None:
    hashed = zlib.crc32(feature.encode("utf-8"))
    if hashed in counts:
        counts[hashed][1] += 1
    else:
        counts[hashed] = [weight, 1]
