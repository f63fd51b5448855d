"""SQL over a knowledge graph: the BOXes of a question's subgraph as tables
of an in-memory SQLite database, queried in the sandbox on a real rdflib-read
Turtle file."""

from __future__ import annotations

from pathlib import Path

import pytest

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor import execute
from plugins.pandas_box import workspace_boxes
from tests.conftest import EXAMPLES, run_pandora

HITCHCOCK = Focus(question="Which films did Alfred Hitchcock direct?")


@pytest.fixture(scope="module")
def films() -> Workspace:
    """The bundled films KG."""
    return Workspace.of([load_source(str(EXAMPLES / "films.ttl"))])


def test_the_tables_are_the_boxes_of_the_focus_with_their_keys(films):
    sql = get_registry().representation("sql")
    boxes = workspace_boxes(films, HITCHCOCK)
    items = sql.schema_items(films, HITCHCOCK)
    assert [item.name for item in items] == [box.name for box in boxes]
    film = next(box for box in boxes if box.name == "film")
    assert [item.fields for item in items if item.name == "film"] == [
        tuple(map(str, film.frame.columns))
    ]
    schema = sql.render_schema(films, HITCHCOCK, values=3)
    assert 'CREATE TABLE "film" (' in schema
    for key in film.foreign_keys:
        assert f'FOREIGN KEY("{key.field}") REFERENCES "{key.ref_box}" ("{key.ref_field}")' in (
            schema
        )
    assert "rowid" not in sql.instruction(films)  # BOXes are no files with a row order


def test_a_query_returns_what_pandas_computes_on_the_same_boxes(films):
    query = (
        "SELECT f.film FROM film AS f JOIN person AS p ON f.directed_by = p.person "
        "WHERE p.person = 'Alfred Hitchcock' ORDER BY f.film"
    )
    by_sql = execute(query, films, representation="sql", focus=HITCHCOCK)
    program = (
        "frame = film.merge(person, left_on='directed_by', right_on='person')\n"
        "result = sorted(frame[frame['person'] == 'Alfred Hitchcock']['film'])"
    )
    by_pandas = execute(program, films, representation="pandas", focus=HITCHCOCK)
    assert by_sql.error is None and by_pandas.error is None
    assert by_sql.result == by_pandas.result
    assert [row[0] for row in by_sql.result] == ["Notorious", "Rear Window", "Vertigo"]


def test_a_graph_with_a_table_is_one_database(films):
    cities = load_source(str(EXAMPLES / "cities.csv"))
    both = Workspace.of([*films.sources, cities])
    items = get_registry().representation("sql").schema_items(both, HITCHCOCK)
    names = [item.name for item in items]
    assert "film" in names and "cities" in names
    rows = execute("SELECT COUNT(*) FROM cities", both, representation="sql", focus=HITCHCOCK)
    assert rows.error is None and rows.result[0][0] > 0


def test_hostile_values_of_the_graph_are_data_not_sql(tmp_path: Path):
    hostile = "Robert'); DROP TABLE film;--"
    graph = tmp_path / "hostile.ttl"
    graph.write_text(
        "@prefix ex: <http://example.org/> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        f'ex:f1 a ex:film ; rdfs:label "{hostile}" ; ex:note "line one\\n-- line two" .\n'
        'ex:f2 a ex:film ; rdfs:label "Plain" ; ex:note "x" .\n',
        encoding="utf-8",
    )
    workspace = Workspace.of([load_source(str(graph))])
    focus = Focus(question="Which films are there?")
    schema = get_registry().representation("sql").render_schema(workspace, focus, values=5)
    lines = schema.split("\n")
    assert all(line.startswith(("--", "CREATE", "\t", ")")) or not line for line in lines)
    picked = execute(
        "SELECT film, note FROM film ORDER BY film", workspace, representation="sql", focus=focus
    )
    assert picked.error is None
    assert picked.result == [["Plain", "x"], [hostile, "line one\n-- line two"]]
    counted = execute("SELECT COUNT(*) FROM film", workspace, representation="sql", focus=focus)
    assert counted.result == [[2]]


def test_sql_typed_by_hand_refuses_a_graph_in_one_line():
    run = run_pandora("sql", str(EXAMPLES / "films.ttl"), "SELECT 1")
    assert run.exit_code == 2
    assert run.stderr.strip().count("\n") == 0
    assert "films is a knowledge graph: SQL runs on its tables only for a question" in run.stderr
