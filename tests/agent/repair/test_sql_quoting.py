"""Names a query wrote bare that SQL cannot read bare (`Area (km²)`, `Low
grade`) are quoted, and the query then runs, on a real CSV loaded as SQL."""

from __future__ import annotations

import pytest

from agent.repair import repair_program
from agent.repair.sql_quoting import quote_bare_names
from plugins import Box, Workspace, load_source
from plugins.executor import execute
from plugins.pandas_box import workspace_boxes

TABLE = """Name,Area (km²),Area,Low grade,Note
Asyut,25926,big,PK,"Area (km²) is approximate"
Giza,13184,big,K,
Luxor,2410,small,PK,
"""


@pytest.fixture(scope="module")
def governorates(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    path = tmp_path_factory.mktemp("quoting") / "governorates.csv"
    path.write_text(TABLE, encoding="utf-8")
    return Workspace.of([load_source(str(path))])


@pytest.fixture(scope="module")
def boxes(governorates: Workspace) -> list[Box]:
    return workspace_boxes(governorates)


def test_a_bare_name_with_a_space_and_brackets_is_quoted_and_the_query_runs(governorates, boxes):
    query = "SELECT t.Name FROM governorates AS t WHERE t.Area (km²) > 10000 ORDER BY Name"
    failed = execute(query, governorates, "sql")
    assert failed.error is not None
    repaired = repair_program(
        query, "sql", failed.error.type, failed.error.message, boxes, "sqlite"
    )
    assert repaired is not None and repaired.changes == ("quoted Area (km²)",)
    assert execute(repaired.code, governorates, "sql").result == [["Asyut"], ["Giza"]]


def test_the_longest_name_is_quoted_whole_and_other_case_takes_the_schema_spelling(boxes):
    code, quoted = quote_bare_names(
        "SELECT Area, area (KM²) FROM governorates WHERE low GRADE = 'PK'", boxes
    )
    assert code == ('SELECT Area, "Area (km²)" FROM governorates WHERE "Low grade" = \'PK\'')
    assert set(quoted) == {"Area (km²)", "Low grade"}


def test_names_inside_literals_and_quotes_are_left_alone(boxes):
    query = (
        'SELECT "Area (km²)", [Low grade] FROM governorates '
        "WHERE Note = 'Area (km²) is approximate'"
    )
    assert quote_bare_names(query, boxes) == (query, ())


def test_a_name_with_a_backslash_and_a_percent_sign_is_quoted_as_written(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("id,rate \\1 (%)\n1,7\n", encoding="utf-8")
    workspace = Workspace.of([load_source(str(path))])
    code, quoted = quote_bare_names("SELECT rate \\1 (%) FROM odd", workspace_boxes(workspace))
    assert code == 'SELECT "rate \\1 (%)" FROM odd' and quoted == ("rate \\1 (%)",)
    assert execute(code, workspace, "sql").result == [[7]]
