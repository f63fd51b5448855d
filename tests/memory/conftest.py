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
        "origin": "cli",
        "answer": [["1"]],
        "schema_fingerprint": "fp-1",
    }
    values.update(fields)
    return Demonstration.model_validate(values)


def ask_with_fake_llm(
    question: str, source: str, right_code: str, *options: str, language: str = "python"
):
    """`pandora ask QUESTION --source SOURCE --json OPTIONS...` in a subprocess
    whose LLM is a fake OpenAI-compatible server writing `right_code` (fenced
    as `language`); returns the CliRun and how many LLM calls the server received."""
    import os

    from tests.conftest import run_pandora
    from tests.fake_openai import Step, fake_openai_server

    with fake_openai_server(
        [Step(f"```{language}\n{right_code}\n```") for _ in range(3)]
    ) as server:
        environment = {
            **{key: value for key, value in os.environ.items() if not key.startswith("OPENAI_")},
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "test-key",
            "PANDORA_MODEL": "fake-model",
        }
        run = run_pandora("ask", question, "--source", source, "--json", *options, env=environment)
        return run, len(server.requests)
