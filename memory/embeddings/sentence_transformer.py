"""Opt-in embedding: a sentence-transformers model from a local path.

Selected with `PANDORA_EMBEDDING=sentence-transformers:/path/to/model` (the
Pandora paper used bge-large-en-v1.5). Needs `pip install sentence-transformers`
and the model on disk: nothing is downloaded at run time.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from plugins.errors import PandoraError


class SentenceTransformerEmbedding:
    """Embeds with `SentenceTransformer(path).encode(..., normalize_embeddings=True)`."""

    def __init__(self, path: str):
        self.path = path
        self.name = f"sentence-transformers:{Path(path).name}"
        self._model = None

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text (searches and stored questions alike)."""
        vectors = self._load().encode(list(texts), normalize_embeddings=True, batch_size=64)
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        if self._model is None:
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError as error:
                raise PandoraError(
                    "embedding sentence-transformers needs `pip install sentence-transformers`"
                ) from error
            if not Path(self.path).is_dir():
                raise PandoraError(f"sentence-transformers model folder not found: {self.path}")
            self._model = SentenceTransformer(self.path, local_files_only=True)
        return self._model
