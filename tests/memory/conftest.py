"""Fixtures for the memory tests: a real Chroma store under tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from memory.models import Demonstration
from memory.settings import MemorySettings
from memory.store import DemonstrationStore


@pytest.fixture
def settings(memory_home: Path) -> MemorySettings:
    """The default settings for the test's home."""
    return MemorySettings.from_env()


@pytest.fixture
def store(settings: MemorySettings) -> DemonstrationStore:
    """An empty store (no seed) in the test's home."""
    return DemonstrationStore.open(settings, load_seed=False)


def make_demo(question: str, code: str = "result = 1", **fields: object) -> Demonstration:
    """A demonstration with sensible defaults for the fields a test does not care about."""
    values: dict[str, object] = {
        "question": question,
        "code": code,
        "kind": "table",
        "representation": "pandas",
        "verified": "executed",
        "answer": [["1"]],
        "schema_fingerprint": "fp-1",
    }
    values.update(fields)
    return Demonstration.model_validate(values)
