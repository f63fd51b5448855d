"""Opt-in embedding: Chroma's bundled ONNX all-MiniLM-L6-v2 runner.

Selected with `PANDORA_EMBEDDING=onnx-minilm`. Chroma keeps the model under
`~/.cache/chroma/onnx_models/all-MiniLM-L6-v2`; `PANDORA_ONNX_MINILM_DIR` points
at another folder holding `onnx/model.onnx` and `onnx/tokenizer.json`. Pandora
never downloads it: a missing model is a clear error.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from plugins.errors import PandoraError


class OnnxMiniLMEmbedding:
    """Embeds with `chromadb.utils.embedding_functions.ONNXMiniLM_L6_V2`."""

    name = "onnx-minilm-l6-v2"

    def __init__(self) -> None:
        self._function = None

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One L2-normalised float32 row per text (searches and stored questions alike)."""
        vectors = self._load()(list(texts))
        return np.asarray(vectors, dtype=np.float32)

    def _load(self) -> Any:
        if self._function is None:
            from chromadb.utils.embedding_functions import ONNXMiniLM_L6_V2

            folder = Path(
                os.environ.get("PANDORA_ONNX_MINILM_DIR") or ONNXMiniLM_L6_V2.DOWNLOAD_PATH
            )
            model_file = folder / ONNXMiniLM_L6_V2.EXTRACTED_FOLDER_NAME / "model.onnx"
            if not model_file.is_file():
                raise PandoraError(
                    f"ONNX MiniLM model not found at {model_file}; put it there or set "
                    "PANDORA_ONNX_MINILM_DIR (Pandora does not download models)"
                )
            function = ONNXMiniLM_L6_V2()
            function.DOWNLOAD_PATH = folder
            self._function = function
        return self._function
