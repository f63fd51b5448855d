"""The small datasets of tests/evaluation/data, one per public format, copied to a
temporary folder (Spider's database is built there from its schema.sql)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def datasets(tmp_path: Path) -> Path:
    """A writable copy of the test datasets, with Spider's SQLite file built."""
    copy = tmp_path / "datasets"
    shutil.copytree(DATA, copy)
    database = copy / "spider" / "database" / "shop"
    connection = sqlite3.connect(database / "shop.sqlite")
    with connection:
        connection.executescript((database / "schema.sql").read_text(encoding="utf-8"))
    connection.close()
    return copy
