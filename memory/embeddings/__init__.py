"""Pluggable embeddings of questions, chosen by name (`PANDORA_EMBEDDING`).

| name | what | needs |
| --- | --- | --- |
| `hashed` (default), `hashed:DIMS` | hashed word and character n-grams | nothing |
| `openai:MODEL` | an OpenAI-compatible `/embeddings` endpoint | a server |
| `sentence-transformers:PATH` | a local sentence-transformers model | the package and the model |
| `onnx-minilm` | Chroma's ONNX all-MiniLM-L6-v2 | the model files on disk |

Every embedding has a `name`, its identity: the store records it and refuses
to be queried with another one (see `pandora memory reindex`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from memory.embeddings.hashed import HashedNgramEmbedding
from memory.embeddings.onnx_minilm import OnnxMiniLMEmbedding
from memory.embeddings.openai_compatible import OpenAICompatibleEmbedding
from memory.embeddings.sentence_transformer import SentenceTransformerEmbedding
from plugins.errors import BadInputError

DEFAULT_EMBEDDING = "hashed"


class Embedding(Protocol):
    """Turns texts into L2-normalised vectors; `name` identifies the vectors."""

    name: str

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""
        ...


def get_embedding(spec: str | None = None) -> Embedding:
    """The embedding named by `spec` (`PANDORA_EMBEDDING` syntax; None = default)."""
    spec = (spec or DEFAULT_EMBEDDING).strip()
    family, _, argument = spec.partition(":")
    if family == "hashed":
        if not argument:
            return HashedNgramEmbedding()
        if not argument.isdigit() or int(argument) < 16:
            raise BadInputError(f"embedding {spec!r}: hashed:DIMS needs a number of at least 16")
        return HashedNgramEmbedding(int(argument))
    if family == "openai" and argument:
        return OpenAICompatibleEmbedding(argument)
    if family == "sentence-transformers" and argument:
        return SentenceTransformerEmbedding(argument)
    if family == "onnx-minilm" and not argument:
        return OnnxMiniLMEmbedding()
    raise BadInputError(
        f"unknown embedding {spec!r}; use hashed, hashed:DIMS, openai:MODEL, "
        "sentence-transformers:PATH or onnx-minilm"
    )


__all__ = ["DEFAULT_EMBEDDING", "Embedding", "HashedNgramEmbedding", "get_embedding"]
