"""A semantic embedding and a lexical one, side by side in one vector.

The cosine of two concatenated unit vectors `[s, w * l]` (renormalised) is
`(cos_s + w² cos_l) / (1 + w²)`: a weighted mean of the two similarities.
E5 alone finds paraphrases (Spider dev's shared-query pairs: found first
88%, hashed 57%) but ranks by topic more than by reasoning pattern
(labelled set precision@10: 0.31, hashed 0.48); a little of the hashed
n-grams' shared wording ("how many", "the most") brings the pattern back
for a small cost on paraphrases (docs/memory.md has the figures).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from memory.embeddings.e5 import E5Embedding
from memory.embeddings.hashed import HashedNgramEmbedding

LEXICAL_WEIGHT = 0.5


class CombinedEmbedding:
    """E5 and hashed n-grams, the n-gram part weighted by `lexical_weight`."""

    def __init__(self, lexical_weight: float = LEXICAL_WEIGHT):
        self.semantic = E5Embedding()
        self.lexical = HashedNgramEmbedding()
        self.lexical_weight = lexical_weight
        self.name = f"{self.semantic.name}+{lexical_weight:g}*{self.lexical.name}"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text: both vectors, concatenated."""
        joined = np.hstack(
            [
                self.semantic.embed(texts, query=query),
                self.lexical_weight * self.lexical.embed(texts, query=query),
            ]
        )
        norms = np.linalg.norm(joined, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return (joined / norms).astype(np.float32)
