"""Joined views in the sql representation: shown after the tables with
example rows, queried like tables on SQLite and DuckDB, and never a way to
write."""

from __future__ import annotations

import hashlib
import sqlite3

import duckdb
import pytest

from evaluation.datasets.temptabqa import SCHEMA, Infobox, write_database
from plugins import Workspace, get_registry, load_source
from plugins.executor import execute
from plugins.sql_schema import QueryRefused, run_query
from plugins.sql_schema.joined_view_sql import with_view_definitions
from plugins.sql_schema.targets import workspace_sql_target

MEDALS = Infobox(
    name="Ann Example",
    country="NOR",
    tournaments=[
        (
            "Olympic Games",
            [("Singles", [("Gold", 2016, "Rio"), ("Gold", 2020, "Tokyo")])],
        ),
        ("World Championships", [("Doubles", [("Bronze", 2019, "Oslo")])]),
    ],
)
GOLD_BY_TOURNAMENT = (
    "SELECT tournament_name, COUNT(*) FROM medal_details "
    "WHERE medal_type = 'Gold' GROUP BY tournament_name"
)


@pytest.fixture
def medals(tmp_path):
    return write_database(MEDALS, tmp_path / "medals.sqlite")


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_schema_shows_the_view_after_the_tables_with_example_rows(medals):
    workspace = Workspace.of([load_source(str(medals))])
    text = get_registry().representation("sql").render_schema(workspace, None, 2)
    view_block = text.split("\n\n")[-1]
    assert view_block.startswith("CREATE VIEW medal_details (\n\tmedal_id INTEGER,")
    description = "is Medal joined with Format, Tournament, Athlete and PersonalInformation"
    assert f"-- medal_details {description}" in view_block
    first_row = "-- (1, 'Gold', 2016, 'Rio', 'Singles', 'Olympic Games', 'Ann Example', 'NOR', NULL"
    assert first_row in view_block
    assert text.index('CREATE TABLE "Tournament"') < text.index("CREATE VIEW")


def test_a_query_on_the_view_runs_in_the_sandbox_like_any_query(medals):
    run = execute(GOLD_BY_TOURNAMENT, Workspace.of([load_source(str(medals))]), "sql")
    assert run.error is None
    assert run.result == [["Olympic Games", 2]]


def test_view_names_are_case_insensitive_and_shadowed_by_the_querys_own(medals):
    workspace = Workspace.of([load_source(str(medals))])
    rows = run_query(workspace, "SELECT COUNT(*) FROM Medal_Details").rows
    assert rows == [[3]]
    own = "WITH medal_details AS (SELECT 7 AS n) SELECT n FROM medal_details"
    assert run_query(workspace, own).rows == [[7]]
    nested = (
        "/* gold */ WITH RECURSIVE gold AS (SELECT year FROM medal_details "
        "WHERE medal_type = 'Gold') SELECT year FROM gold ORDER BY year"
    )
    assert run_query(workspace, nested).rows == [[2016], [2020]]


def test_a_query_naming_no_view_is_run_unchanged(medals):
    target = workspace_sql_target(Workspace.of([load_source(str(medals))]))
    query = "SELECT name FROM Athlete"
    assert with_view_definitions(query, target.joined_views(), "sqlite") is query


def test_the_view_runs_on_duckdb_opened_read_only(tmp_path):
    path = tmp_path / "medals.duckdb"
    connection = duckdb.connect(str(path))
    for statement in filter(str.strip, SCHEMA.split(";")):
        connection.execute(statement)
    connection.execute("INSERT INTO Athlete VALUES (1, 'Ann Example', 'NOR')")
    connection.execute("INSERT INTO Tournament VALUES (1, 1, 'Olympic Games')")
    connection.execute("INSERT INTO Format VALUES (1, 1, 'Singles')")
    connection.execute("INSERT INTO Medal VALUES (1, 1, 'Gold', 2016, 'Rio')")
    connection.close()
    workspace = Workspace.of([load_source(str(path))])
    assert run_query(workspace, GOLD_BY_TOURNAMENT).rows == [["Olympic Games", 1]]
    assert "CREATE VIEW medal_details" in get_registry().representation("sql").render_schema(
        workspace
    )


VIEW_WRITES = [
    "INSERT INTO medal_details (medal_id) VALUES (9)",
    "DELETE FROM medal_details",
    "UPDATE medal_details SET year = 1900",
    "DELETE FROM Medal WHERE medal_id IN (SELECT medal_id FROM medal_details)",
    "SELECT * FROM medal_details; DELETE FROM Medal",
    "WITH medal_details AS (SELECT 1) DELETE FROM Medal",
    "CREATE TEMP VIEW medal_details AS SELECT * FROM Medal",
    "CREATE TABLE copy AS SELECT * FROM medal_details",
    "SELECT * INTO copy FROM medal_details",
]


@pytest.mark.parametrize("query", VIEW_WRITES)
def test_the_view_machinery_cannot_be_used_to_write(medals, query):
    before = digest(medals)
    workspace = Workspace.of([load_source(str(medals))])
    with pytest.raises(QueryRefused):
        run_query(workspace, query)
    assert digest(medals) == before
    assert sqlite3.connect(medals).execute("SELECT COUNT(*) FROM Medal").fetchone() == (3,)


def test_adding_definitions_to_a_write_still_leaves_a_refused_write(medals):
    target = workspace_sql_target(Workspace.of([load_source(str(medals))]))
    with pytest.raises(QueryRefused):
        with_view_definitions(
            "DELETE FROM Medal WHERE medal_id IN (SELECT medal_id FROM medal_details)",
            target.joined_views(),
            "sqlite",
        )
