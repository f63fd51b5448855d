"""The memory: verified demonstrations retrieved for every question.

The agent calls `retrieve_demonstrations(question, k=..., kind=..., mode=...)`;
everything else (adding, listing, import/export, reindex, staleness) goes
through `DemonstrationStore`. See docs/memory.md.
"""

from memory.models import Demonstration, FocusSpec, ScoredDemonstration
from memory.retrieval import (
    default_store,
    find_cached_program,
    retrieve_demonstrations,
    search_demonstrations,
)
from memory.settings import MemorySettings
from memory.store import DemonstrationStore, EmbeddingMismatchError

__all__ = [
    "Demonstration",
    "DemonstrationStore",
    "EmbeddingMismatchError",
    "FocusSpec",
    "MemorySettings",
    "ScoredDemonstration",
    "default_store",
    "find_cached_program",
    "retrieve_demonstrations",
    "search_demonstrations",
]
