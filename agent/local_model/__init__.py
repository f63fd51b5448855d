"""The local model (the `local` extra): Qwen2.5-Coder-1.5B served by
llama.cpp (xllamacpp) in a child process on 127.0.0.1, so `pandora ask`
answers offline with no API key. See docs/agent.md."""

from __future__ import annotations

import importlib.util

from agent.local_model.files import (
    LocalModelError,
    ensure_model_file,
    model_path,
    model_ready,
    parts_installed,
)
from agent.local_model.server import (
    LocalServer,
    ensure_local_server,
    start_server,
    warm_server,
)

__all__ = [
    "LocalModelError",
    "LocalServer",
    "ensure_local_server",
    "ensure_model_file",
    "local_model_installed",
    "model_path",
    "model_ready",
    "start_server",
    "warm_server",
]


def local_model_installed() -> bool:
    """Whether the `local` extra is installed (xllamacpp and the model packages)."""
    return importlib.util.find_spec("xllamacpp") is not None and parts_installed()
