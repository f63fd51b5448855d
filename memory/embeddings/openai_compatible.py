"""Opt-in embedding: any OpenAI-compatible `/embeddings` endpoint.

Selected with `PANDORA_EMBEDDING=openai:MODEL`. The server is
`PANDORA_EMBEDDING_BASE_URL`, else `OPENAI_BASE_URL`, else OpenAI's; the key is
`OPENAI_API_KEY` (a local server such as vLLM, Ollama or llama.cpp accepts any).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from plugins.errors import PandoraError

BATCH_SIZE = 256


class OpenAICompatibleEmbedding:
    """Embeds through the `embeddings.create` call of the `openai` client."""

    def __init__(self, model: str):
        self.model = model
        self.name = f"openai:{model}"
        self._client = None

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text, asked of the server in batches."""
        rows: list[list[float]] = []
        for start in range(0, len(texts), BATCH_SIZE):
            batch = list(texts[start : start + BATCH_SIZE])
            try:
                response = self._openai().embeddings.create(model=self.model, input=batch)
            except Exception as error:  # network, auth, unknown model: one clear line
                raise PandoraError(
                    f"embedding server failed for model {self.model!r}: {error}"
                ) from error
            rows.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        return _normalised(np.asarray(rows, dtype=np.float32).reshape(len(texts), -1))

    def _openai(self) -> Any:
        if self._client is None:
            from openai import OpenAI

            base_url = os.environ.get("PANDORA_EMBEDDING_BASE_URL") or os.environ.get(
                "OPENAI_BASE_URL"
            )
            api_key = os.environ.get("OPENAI_API_KEY") or "not-needed"
            self._client = OpenAI(base_url=base_url, api_key=api_key)
        return self._client


def _normalised(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
