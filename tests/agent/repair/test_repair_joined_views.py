"""Repair knows a joined view's names: a misspelt view or view field is
repaired to it, and a query that uses the view as shown is never "fixed"."""

from __future__ import annotations

import pytest

from agent.repair import repair_program
from evaluation.datasets.temptabqa import Infobox, write_database
from plugins import Workspace, get_registry, load_source
from plugins.executor import execute

MEDALS = Infobox(
    name="Ann Example",
    country="NOR",
    tournaments=[("Olympic Games", [("Singles", [("Gold", 2016, "Rio")])])],
)


@pytest.fixture
def medals(tmp_path) -> Workspace:
    return Workspace.of([load_source(str(write_database(MEDALS, tmp_path / "medals.sqlite")))])


def repaired_and_run(query: str, workspace: Workspace) -> tuple[str, list]:
    run = execute(query, workspace, "sql")
    assert run.error is not None, "the unrepaired query should fail"
    boxes = get_registry().representation("sql").vocabulary(workspace).boxes
    repair = repair_program(query, "sql", run.error.type, run.error.message, boxes, "sqlite")
    assert repair is not None
    fixed = execute(repair.code, workspace, "sql")
    assert fixed.error is None
    return repair.code, fixed.result


def test_the_view_is_in_the_vocabulary_repair_reads(medals):
    boxes = get_registry().representation("sql").vocabulary(medals).boxes
    assert "medal_details" in [box.name for box in boxes]


def test_a_misspelt_view_field_is_repaired_to_the_views_own(medals):
    code, rows = repaired_and_run("SELECT T1.athlete FROM medal_details AS T1", medals)
    assert "athlete_name" in code
    assert rows == [["Ann Example"]]


def test_a_misspelt_view_name_is_repaired_to_the_view(medals):
    code, rows = repaired_and_run("SELECT medal_type FROM medal_detail", medals)
    assert "medal_details" in code
    assert rows == [["Gold"]]
