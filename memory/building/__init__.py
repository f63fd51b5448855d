"""Building the memory from labelled data: `pandora memory build` (see docs/evaluation.md)."""

from memory.building.budget import Budget
from memory.building.builder import Annotator, MemoryBuilder
from memory.building.journal import Journal
from memory.building.models import Annotation, BuildReport, BuildSample, JournalEntry

__all__ = [
    "Annotation",
    "Annotator",
    "Budget",
    "BuildReport",
    "BuildSample",
    "Journal",
    "JournalEntry",
    "MemoryBuilder",
]
