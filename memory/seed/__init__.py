"""The seed memory: demonstrations written by the Pandora team over the
bundled examples (examples/cities.csv, music.sqlite, films.ttl).

They ship as JSONL package data beside this file and are added to a store on
its first use, and again when an upgrade ships a different seed (duplicates
are skipped by id). Their answers were produced by running their code through
the executor (`python -m memory.seed.build`), and the test suite re-runs every
one of them.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from memory.models import Demonstration

if TYPE_CHECKING:
    from memory.store import DemonstrationStore

SEED_DIR = Path(__file__).parent
SEED_DATASET = "pandora-examples"


def examples_dir() -> Path:
    """The folder the seeds' sources are relative to: `PANDORA_EXAMPLES`, else
    the repository's examples/ (next to the `memory` package)."""
    configured = os.environ.get("PANDORA_EXAMPLES")
    return Path(configured) if configured else SEED_DIR.parents[1] / "examples"


def seed_files() -> list[Path]:
    """The seed JSONL files, in a stable order."""
    return sorted(SEED_DIR.glob("*.jsonl"))


@cache
def seed_version() -> str:
    """A hash of the seed files: it changes when an upgrade ships new seeds."""
    hasher = hashlib.sha256()
    for path in seed_files():
        hasher.update(path.read_bytes())
    return hasher.hexdigest()[:16]


def load_seed_demonstrations() -> list[Demonstration]:
    """Every seed demonstration, parsed and validated."""
    demonstrations: list[Demonstration] = []
    for path in seed_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                demonstrations.append(Demonstration.model_validate_json(line))
    return demonstrations


def load_seed_into(store: DemonstrationStore) -> None:
    """Add the seed to `store` unless this version of it is already there."""
    version = seed_version()
    if store.metadata_value("seed_version") == version:
        return
    with store.lock.held():
        if store.metadata_value("seed_version") == version:
            return
        store.add_many(load_seed_demonstrations())
        store.set_metadata_value("seed_version", version)
