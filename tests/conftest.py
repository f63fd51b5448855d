"""Fixtures shared by the whole suite: the CLI as a subprocess, the bundled examples."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLES = REPOSITORY / "examples"


@dataclass
class CliRun:
    """The outcome of one `pandora` subprocess."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def json(self) -> Any:
        """stdout parsed as the one JSON object `--json` promises."""
        return json.loads(self.stdout)


def run_pandora(
    *arguments: str, cwd: Path | None = None, stdin: str | None = None, env=None
) -> CliRun:
    """Run `pandora ARGUMENTS...` in a fresh Python process, as a user would."""
    completed = subprocess.run(
        [sys.executable, "-m", "cli", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd or REPOSITORY,
        input=stdin,
        env=env,
        timeout=120,
    )
    return CliRun(completed.returncode, completed.stdout, completed.stderr)


@pytest.fixture
def pandora():
    """Call as `pandora("inspect", path, "--json")`; returns a CliRun."""
    return run_pandora


@pytest.fixture
def examples() -> Path:
    """The bundled examples folder."""
    return EXAMPLES


@pytest.fixture(autouse=True)
def memory_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every test gets its own PANDORA_HOME (inherited by CLI subprocesses) and the
    default memory settings; ~/.pandora is never touched. The memory stores a test
    opened are let go after it (`_release_memory_stores`)."""
    home = tmp_path / "pandora-home"
    monkeypatch.setenv("PANDORA_HOME", str(home))
    # nor the machine's shared local model server (agent/local_model/sharing.py)
    monkeypatch.setenv("PANDORA_RUNTIME_DIR", str(tmp_path / "runtime"))
    for variable in ("PANDORA_EMBEDDING", "PANDORA_MEMORY_URL", "PANDORA_MEMORY_MASKING"):
        monkeypatch.delenv(variable, raising=False)
    yield home
    _release_memory_stores()


def _release_memory_stores() -> None:
    """Chroma keeps every store path it opened, about a dozen descriptors each
    (SQLite and index files), until the process ends; a test worker that opens
    one store per test's home would otherwise reach past a thousand."""
    if "chromadb" not in sys.modules:
        return
    from chromadb.api.client import SharedSystemClient

    from memory import retrieval

    retrieval._store_for.cache_clear()
    SharedSystemClient.clear_system_cache()


@pytest.fixture
def medals_database(tmp_path: Path) -> Path:
    """An athlete's medals as the TempTabQA-C loader writes them: a real
    SQLite file of Medal, Format, Tournament, Athlete and PersonalInformation,
    whose joined view `medal_details` holds every row of its tables."""
    from evaluation.datasets.temptabqa import Infobox, write_database

    medals = Infobox(
        name="Ann Example",
        country="NOR",
        tournaments=[
            ("Olympic Games", [("Singles", [("Gold", 2016, "Rio"), ("Gold", 2020, "Tokyo")])]),
            ("World Championships", [("Doubles", [("Bronze", 2019, "Oslo")])]),
        ],
    )
    return write_database(medals, tmp_path / "medals.sqlite")
