"""The memory: verified demonstrations retrieved for every question.

The agent calls `retrieve_demonstrations(question, k=..., kind=..., mode=...)`;
everything else (adding, listing, import/export, reindex, staleness) goes
through `DemonstrationStore`. See docs/memory.md.

Importing `memory` is cheap: ChromaDB and the embedding model are imported
when a name that needs them is first used (the CLI's start-up depends on it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memory.models import Demonstration, FocusSpec, ProgramCacheRecord, ScoredDemonstration
    from memory.program_cache import find_cached_program, serve_cached_program
    from memory.retrieval import default_store, retrieve_demonstrations, search_demonstrations
    from memory.settings import MemorySettings
    from memory.store import DemonstrationStore, EmbeddingMismatchError

_HOMES = {
    "Demonstration": "memory.models",
    "FocusSpec": "memory.models",
    "ProgramCacheRecord": "memory.models",
    "ScoredDemonstration": "memory.models",
    "default_store": "memory.retrieval",
    "find_cached_program": "memory.program_cache",
    "serve_cached_program": "memory.program_cache",
    "retrieve_demonstrations": "memory.retrieval",
    "search_demonstrations": "memory.retrieval",
    "MemorySettings": "memory.settings",
    "DemonstrationStore": "memory.store",
    "EmbeddingMismatchError": "memory.store",
}

__all__ = [
    "Demonstration",
    "DemonstrationStore",
    "EmbeddingMismatchError",
    "FocusSpec",
    "MemorySettings",
    "ProgramCacheRecord",
    "ScoredDemonstration",
    "default_store",
    "find_cached_program",
    "retrieve_demonstrations",
    "search_demonstrations",
    "serve_cached_program",
]


def __getattr__(name: str) -> Any:
    """Import the module defining `name` on first use (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module 'memory' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value
