"""A tiny deterministic text embedding: hashed words and character trigrams.

Relation pruning needs "how close is `directed_by` to this question" with no
model to download. Words and their character trigrams are hashed (blake2b,
stable across processes, unlike `hash`) into a fixed-size signed vector;
trigrams make `directed` and `director` close. Enough to rank a few hundred
relation names against one question.
"""

from __future__ import annotations

import hashlib

import numpy as np

from plugins.knowledge_graph.text import normalize_label, split_identifier_words

DIMENSIONS = 512


def embed(text: str) -> np.ndarray:
    """The unit-length hashed n-gram vector of `text` (zeros when it has no words)."""
    vector = np.zeros(DIMENSIONS)
    for feature in _features(normalize_label(split_identifier_words(text))):
        digest = int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=8).digest(), "big")
        vector[digest % DIMENSIONS] += 1.0 if (digest >> 32) & 1 else -1.0
    norm = np.linalg.norm(vector)
    return vector / norm if norm else vector


def similarity(first: np.ndarray, second: np.ndarray) -> float:
    """Cosine similarity of two vectors from `embed`."""
    return float(first @ second)


def _features(text: str) -> list[str]:
    features = []
    for word in text.split():
        features.append("w:" + word)
        padded = f"#{word}#"
        features.extend("c:" + padded[i : i + 3] for i in range(len(padded) - 2))
    return features
