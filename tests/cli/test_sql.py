"""`pandora sql` on real SQLite files and CSVs: exit codes, messages, output as typed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

SLOW_QUERY = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("SELEC * FROM album", "syntax error near 'FROM' (line 1, column 12)"),
        ("SELECT * FROM album WHERE (", "syntax error near '('"),
        ("SELECT 'unclosed FROM album", "a quote or bracket is never closed"),
    ],
)
def test_a_query_that_does_not_parse_is_bad_input_told_in_sql_terms(
    pandora, examples, query, message
):
    run = pandora("sql", str(examples / "music.sqlite"), query, "--json")
    assert run.exit_code == 2
    error = run.json["error"]
    assert error["type"] == "Refused" and message in error["message"]
    assert "sqlglot" not in run.stderr and "<class" not in run.stderr
    assert run.stderr == f"pandora: Refused: {error['message']}\n"


@pytest.mark.parametrize("query", ["", "   ", "DELETE FROM album", "ATTACH 'x.db' AS x"])
def test_empty_and_writing_queries_exit_2_and_change_nothing(pandora, examples, tmp_path, query):
    database = tmp_path / "music.sqlite"
    database.write_bytes((examples / "music.sqlite").read_bytes())
    run = pandora("sql", str(database), query, "--json")
    assert run.exit_code == 2
    assert run.json["error"]["type"] == "Refused" and run.json["rows"] == []
    assert database.read_bytes() == (examples / "music.sqlite").read_bytes()


def test_values_are_printed_literally_never_as_markup(pandora, examples):
    query = """SELECT '[/oops]' AS "[bold]name[/]", '[bold red]x[/]' AS v, char(27) || '[2J' AS e"""
    run = pandora("sql", str(examples / "music.sqlite"), query)
    assert run.exit_code == 0, run.stderr
    assert "[/oops]" in run.stdout and "[bold red]x[/]" in run.stdout
    assert "[bold]name[/]" in run.stdout
    assert "\x1b" not in run.stdout and "\\x1b[2J" in run.stdout


def test_sql_over_several_flat_tables(pandora, tmp_path):
    people = tmp_path / "people.csv"
    people.write_text("name,city\nAda,Lima\nBob,Oslo\n")
    cities = tmp_path / "cities.csv"
    cities.write_text("city,country\nLima,Peru\nOslo,Norway\n")
    query = "SELECT name, country FROM people JOIN cities USING (city) ORDER BY name"
    run = pandora("sql", str(people), str(cities), query, "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json["rows"] == [["Ada", "Peru"], ["Bob", "Norway"]]


def test_timeout_stops_a_long_query(pandora, examples):
    database = str(examples / "music.sqlite")
    run = pandora("sql", database, SLOW_QUERY, "--timeout", "0.5", "--json")
    assert run.exit_code == 1
    assert run.json["error"]["type"] == "QueryFailed"
    assert "0.5 s" in run.json["error"]["message"]


def test_max_rows_cuts_and_says_so(pandora, examples):
    database = str(examples / "music.sqlite")
    run = pandora("sql", database, "SELECT title FROM album ORDER BY title", "--max-rows", "2")
    assert run.exit_code == 0, run.stderr
    assert run.stderr == "pandora: warning: only the first 2 rows are shown (--max-rows)\n"
    titles = sqlite3.connect(examples / "music.sqlite").execute(
        "SELECT title FROM album ORDER BY title LIMIT 3"
    )
    shown = [title for (title,) in titles]
    assert shown[0] in run.stdout and shown[1] in run.stdout and shown[2] not in run.stdout


def write_wide_table(path: Path, columns: int) -> Path:
    path.write_text(
        ",".join(f"c{i}" for i in range(columns)) + "\n" + ",".join("1" * columns) + "\n"
    )
    return path


def test_a_table_too_wide_for_sql_is_bad_input_with_valid_json(pandora, tmp_path):
    wide = write_wide_table(tmp_path / "wide.csv", 2_001)
    run = pandora("sql", str(wide), "SELECT c1 FROM wide", "--json")
    assert run.exit_code == 2
    assert run.json["error"]["type"] == "BadInput"
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("pandora: BadInput: ")
    schema = pandora("inspect", str(wide), "--representation", "sql", "--json")
    assert schema.exit_code == 2 and schema.json["error"]["type"] == "BadInput"


def test_json_values_follow_the_rules_of_every_result(pandora, examples):
    query = "SELECT 1e999 AS big, 2.5 AS half, 3 AS n, NULL AS missing, x'414243' AS raw"
    run = pandora("sql", str(examples / "music.sqlite"), query, "--json")
    assert run.exit_code == 0, run.stderr
    assert "Infinity" not in run.stdout  # not JSON
    assert run.json["rows"] == [[None, 2.5, 3, None, "ABC"]]
