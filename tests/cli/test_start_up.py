"""Commands import what they need when they run it (issue 9, start-up): which
heavy libraries a command loads, checked in a fresh process. The time itself is
measured by benchmarks/startup.py, not here."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import garbage_collection_paused, main
from tests.conftest import REPOSITORY

HEAVY = ("pandas", "pydantic", "sqlalchemy", "sqlglot", "chromadb", "langgraph", "rich")

DRIVER = """
import atexit, json, sys
report, heavy = sys.argv[1], sys.argv[2].split(",")
def write_loaded():
    with open(report, "w") as handle:
        json.dump([name for name in heavy if name in sys.modules], handle)
atexit.register(write_loaded)
sys.argv = ["pandora", *sys.argv[3:]]
from cli.main import main
main(prog_name="pandora")
"""


def loaded_libraries(tmp_path: Path, *arguments: str, exit_code: int = 0) -> set[str]:
    """The HEAVY libraries imported by `pandora ARGUMENTS` (it must exit with `exit_code`)."""
    report = tmp_path / "loaded.json"
    command = [sys.executable, "-c", DRIVER, str(report), ",".join(HEAVY), *arguments]
    completed = subprocess.run(command, capture_output=True, text=True, cwd=REPOSITORY)
    assert completed.returncode == exit_code, completed.stderr
    return set(json.loads(report.read_text()))


@pytest.fixture
def small_table(tmp_path: Path) -> Path:
    path = tmp_path / "small.csv"
    path.write_text("city,population\nLima,9750000\nOslo,709000\n")
    return path


def test_help_imports_none_of_them(tmp_path):
    assert loaded_libraries(tmp_path, "--help") == set()


def test_inspect_of_a_table_needs_only_pandas(tmp_path, small_table):
    assert loaded_libraries(tmp_path, "inspect", str(small_table)) == {"pandas"}


def test_inspect_of_a_database_does_not_load_the_sql_parser(tmp_path, examples):
    loaded = loaded_libraries(tmp_path, "inspect", str(examples / "music.sqlite"))
    assert "sqlglot" not in loaded and "chromadb" not in loaded


def test_sql_on_a_flat_table_needs_only_pandas_and_the_sql_parser(tmp_path, small_table):
    """sqlglot for the read-only check; not the memory or the agent, and neither
    pydantic (the query result is a dataclass) nor rich (rows are printed as
    tab-separated lines): together those two cost about a quarter of `import pandas`."""
    loaded = loaded_libraries(tmp_path, "sql", str(small_table), "SELECT COUNT(*) FROM small")
    assert loaded == {"pandas", "sqlglot"}


def test_a_query_that_does_not_parse_loads_nothing_more(tmp_path, small_table):
    """The friendly syntax error is told from sqlglot's own error, nothing else."""
    query = "SELECT * FROM small WHERE ("
    loaded = loaded_libraries(tmp_path, "sql", str(small_table), query, exit_code=2)
    assert loaded == {"pandas", "sqlglot"}


def test_importing_a_command_pauses_garbage_collection_only_meanwhile():
    """`serve` and `ask` run for long: the collector must be back once imported."""
    with garbage_collection_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    assert main.get_command(None, "plugins") is not None and gc.isenabled()
    gc.disable()
    try:
        with garbage_collection_paused():
            pass
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()
