"""The local model (the `local` extra): Qwen2.5-Coder-1.5B served by
llama.cpp (xllamacpp) on 127.0.0.1, one server shared by every Pandora
process of this user, so `pandora ask` answers offline with no API key.
See docs/agent.md, "The local model server"."""

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
    running_server,
    server_status,
    start_server,
    stop_server,
)

__all__ = [
    "LocalModelError",
    "LocalServer",
    "ensure_model_file",
    "local_model_installed",
    "model_path",
    "model_ready",
    "running_server",
    "server_status",
    "start_server",
    "stop_server",
]


def local_model_installed() -> bool:
    """Whether the `local` extra is installed (xllamacpp and the model packages)."""
    return importlib.util.find_spec("xllamacpp") is not None and parts_installed()
