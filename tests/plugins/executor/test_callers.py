"""Callers the executor must serve: KG BOXes with a focus, scripts without a main guard."""

from __future__ import annotations

import subprocess
import sys

from plugins import Focus, Workspace, load_source
from plugins.executor import execute

HITCHCOCK_FILMS = 'result = sorted(set(film[film["directed_by"] == "Alfred Hitchcock"]["film"]))'


def test_pandas_code_on_kg_boxes_of_a_focus(examples):
    workspace = Workspace.of([load_source(str(examples / "films.ttl"))])
    outcome = execute(
        HITCHCOCK_FILMS, workspace, "pandas", focus=Focus(entities=("Alfred Hitchcock",))
    )
    assert outcome.error is None
    assert outcome.result == [["Notorious"], ["Rear Window"], ["Vertigo"]]


SCRIPT = f"""
print("top-level code ran")
from plugins import Focus, Workspace, load_source
from plugins.executor import execute
workspace = Workspace.of([load_source("examples/films.ttl")])
outcome = execute({HITCHCOCK_FILMS!r}, workspace, "pandas",
                  focus=Focus(entities=("Alfred Hitchcock",)))
print(outcome.result, outcome.error)
"""


def test_a_script_without_main_guard_runs_once_from_a_file_or_stdin(tmp_path, examples):
    script = tmp_path / "ask.py"
    script.write_text(SCRIPT)
    cwd = examples.parent
    for command, stdin in (([sys.executable, str(script)], None), ([sys.executable, "-"], SCRIPT)):
        run = subprocess.run(
            command, input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("top-level code ran") == 1
        assert "[['Notorious'], ['Rear Window'], ['Vertigo']] None" in run.stdout


def test_a_source_file_that_changes_is_read_again(tmp_path):
    table = tmp_path / "prices.csv"
    table.write_text("item,price\npen,2\n")
    code = "result = prices['price'].sum()"
    assert execute(code, Workspace.of([load_source(str(table))])).result == [[2]]
    table.write_text("item,price\npen,2\nink,5\n")
    assert execute(code, Workspace.of([load_source(str(table))])).result == [[7]]
