"""A question asking for "year(s)" answered with `ORDER BY ... LIMIT 1`, on a
real SQLite file of medals where Ramy Ashour's best years tie (2009 and
2013, two medals each): the rewrite returns both, its first row is the
original's, and what it cannot read plainly is left alone. Through the
graph the answer holds both years with one LLM call, and a rewrite that
fails or loses the first row gives way to the original program's rows."""

from __future__ import annotations

import dataclasses
import importlib
import sqlite3
from pathlib import Path

import pytest

from agent import ask
from agent.repair import Repair
from agent.repair.sql_ties import asks_for_several, keep_ties
from tests.agent.conftest import fenced
from tests.fake_openai import Step

QUESTION = "In which year(s) did Ramy Ashour win the highest number of medals during their career?"
MEDALS = [
    (1, 1, 2009, "gold"),
    (2, 1, 2009, "silver"),
    (3, 1, 2010, "gold"),
    (4, 1, 2013, "gold"),
    (5, 1, 2013, "bronze"),
    (6, 2, 2011, "gold"),
    (7, 2, 2011, "gold"),
    (8, 2, 2011, "silver"),
]
ATHLETES = [(1, "Ramy Ashour", 173), (2, "Nick Matthew", 177), (3, "Amr Shabana", 177)]
PLAYERS = [(1, "Ann", None), (2, "Bob", None), (3, "Cem", 4.5), (4, "Dee", 7.0)]
BEST_YEAR = (
    "SELECT T1.year FROM Medal AS T1 JOIN Athlete AS J1 ON T1.athlete_id = J1.id "
    "WHERE J1.name = 'Ramy Ashour' GROUP BY T1.year ORDER BY COUNT(*) DESC LIMIT 1"
)


@pytest.fixture(scope="module")
def medals_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real SQLite file of athletes, their medals, and players with unknown scores."""
    path = tmp_path_factory.mktemp("medals") / "medals.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE Athlete (id INTEGER PRIMARY KEY, name TEXT, height INT)")
        connection.execute(
            "CREATE TABLE Medal (id INTEGER PRIMARY KEY, "
            "athlete_id INTEGER REFERENCES Athlete(id), year INTEGER, type TEXT)"
        )
        connection.execute("CREATE TABLE Player (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
        connection.executemany("INSERT INTO Athlete VALUES (?, ?, ?)", ATHLETES)
        connection.executemany("INSERT INTO Medal VALUES (?, ?, ?, ?)", MEDALS)
        connection.executemany("INSERT INTO Player VALUES (?, ?, ?)", PLAYERS)
    return path


def sqlite_rows(path: Path, sql: str) -> list[list[object]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return [list(row) for row in connection.execute(sql).fetchall()]


def rewritten(code: str, question: str = QUESTION, dialect: str = "sqlite") -> Repair:
    repair = keep_ties(code, question, dialect)
    assert repair is not None
    return repair


@pytest.mark.parametrize(
    ("question", "several"),
    [
        (QUESTION, True),
        ("Which City(s) hosted the final?", True),
        ("Which match(es) went to five games?", True),
        ("In which years did he win?", False),
        ("What does (s) stand for?", False),
    ],
)
def test_a_word_written_with_an_optional_plural_asks_for_several(question, several):
    assert asks_for_several(question) is several


def test_the_tied_years_are_both_kept_and_the_first_row_is_the_originals(medals_file):
    original = sqlite_rows(medals_file, BEST_YEAR)
    repair = rewritten(BEST_YEAR)
    rows = sqlite_rows(medals_file, repair.code)
    assert len(original) == 1
    assert sorted(rows) == [[2009], [2013]]
    assert rows[0] == original[0]
    assert repair.changes == (
        "LIMIT 1 -> every row tied with the first (the question asks for year(s))",
    )
    assert "LIMIT 1" not in repair.code.split("pandora_top_row")[-1]
    assert keep_ties(repair.code, QUESTION, "sqlite") is None  # applied once


def test_an_existing_having_is_kept_beside_the_tie(medals_file):
    code = BEST_YEAR.replace("GROUP BY T1.year", "GROUP BY T1.year HAVING COUNT(*) < 3")
    everyone = code.replace("WHERE J1.name = 'Ramy Ashour' ", "")
    for query in (code, everyone):  # everyone: Nick Matthew's 3 medals of 2011 are over it
        rows = sqlite_rows(medals_file, rewritten(query).code)
        assert sorted(rows) == [[2009], [2013]]
        assert rows[0] == sqlite_rows(medals_file, query)[0]


def test_an_order_by_alias_is_compared_as_the_expression_it_names(medals_file):
    code = BEST_YEAR.replace("SELECT T1.year", "SELECT T1.year, COUNT(*) AS medals").replace(
        "ORDER BY COUNT(*)", "ORDER BY medals"
    )
    rows = sqlite_rows(medals_file, rewritten(code).code)
    assert sorted(rows) == [[2009, 2], [2013, 2]]
    assert rows[0] == sqlite_rows(medals_file, code)[0]


def test_a_query_that_does_not_group_gets_the_tie_in_where(medals_file):
    code = "SELECT name FROM Athlete WHERE name <> 'Ann' OR id > 0 ORDER BY height DESC LIMIT 1"
    repair = rewritten(code, "Who is the tallest athlete(s)?")
    assert "WHERE (name <> 'Ann' OR id > 0) AND height IS (" in repair.code
    assert sqlite_rows(medals_file, repair.code) == [["Nick Matthew"], ["Amr Shabana"]]


def test_a_cte_stays_where_it_is_and_every_key_must_tie(medals_file):
    code = (
        "WITH best AS (SELECT athlete_id, year FROM Medal) "
        "SELECT year FROM best GROUP BY year ORDER BY COUNT(*) DESC, year DESC LIMIT 1"
    )
    repair = rewritten(code)
    assert repair.code.count("WITH") == 1
    assert sqlite_rows(medals_file, repair.code) == sqlite_rows(medals_file, code) == [[2011]]


def test_a_null_top_key_keeps_the_rows_whose_key_is_null(medals_file):
    code = "SELECT name FROM Player ORDER BY score LIMIT 1"  # SQLite sorts NULL first
    repair = rewritten(code, "Which player(s) scored least?")
    assert "score IS (" in repair.code
    assert sqlite_rows(medals_file, repair.code) == [["Ann"], ["Bob"]]
    assert sqlite_rows(medals_file, repair.code.replace("score IS (", "score = (")) == []


@pytest.mark.parametrize(
    ("question", "code"),
    [
        ("In which year did Ramy Ashour win the most medals?", BEST_YEAR),
        (QUESTION, BEST_YEAR.replace("LIMIT 1", "LIMIT 2")),
        (QUESTION, BEST_YEAR.replace("LIMIT 1", "LIMIT 1 OFFSET 1")),
        (QUESTION, BEST_YEAR.replace("LIMIT 1", "LIMIT 1, 1")),
        (QUESTION, BEST_YEAR.replace(" LIMIT 1", "")),
        (QUESTION, BEST_YEAR.replace("ORDER BY COUNT(*) DESC ", "")),
        (QUESTION, BEST_YEAR.replace("ORDER BY COUNT(*) DESC", "ORDER BY 1")),
        (QUESTION, f"{BEST_YEAR}; SELECT 1"),
        (QUESTION, f"SELECT 2009 UNION {BEST_YEAR}"),
        (QUESTION, f"({BEST_YEAR})"),
        (QUESTION, "SELECT year FROM Medal ORDER BY RANDOM() LIMIT 1"),
        (QUESTION, "SELECT year FROM Medal ORDER BY (SELECT MAX(id) FROM Athlete) LIMIT 1"),
        (QUESTION, "SELECT year, RANK() OVER (ORDER BY year) FROM Medal ORDER BY year LIMIT 1"),
        (QUESTION, "SELECT COUNT(*) FROM Medal ORDER BY year LIMIT 1"),
        (QUESTION, "SELECT year FROM Medal ORDER BY COUNT(*) DESC LIMIT 1"),
        (QUESTION, "SELECT FROM WHERE ORDER LIMIT 1"),
    ],
)
def test_what_is_not_plainly_order_by_limit_one_is_left_alone(question, code):
    assert keep_ties(code, question, "sqlite") is None


def test_duckdb_compares_null_safely_too():
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect()
    connection.execute("CREATE TABLE medal (year INTEGER)")
    connection.execute("INSERT INTO medal VALUES (2009), (2009), (2010), (2013), (2013)")
    connection.execute("CREATE TABLE player (name TEXT, score DOUBLE)")
    connection.execute("INSERT INTO player VALUES ('Ann', NULL), ('Bob', NULL), ('Cem', 4.5)")
    best = "SELECT year FROM medal GROUP BY year ORDER BY COUNT(*) DESC LIMIT 1"
    repair = rewritten(best, dialect="duckdb")
    assert "IS NOT DISTINCT FROM" in repair.code
    rows = connection.execute(repair.code).fetchall()
    assert sorted(rows) == [(2009,), (2013,)]
    assert rows[0] == connection.execute(best).fetchall()[0]
    null_first = "SELECT name FROM player ORDER BY score NULLS FIRST LIMIT 1"
    null_rows = connection.execute(rewritten(null_first, dialect="duckdb").code).fetchall()
    assert sorted(null_rows) == [("Ann",), ("Bob",)]
    distinct_on = "SELECT DISTINCT ON (athlete) athlete FROM medal ORDER BY athlete LIMIT 1"
    assert keep_ties(distinct_on, QUESTION, "duckdb") is None


def test_through_the_graph_both_tied_years_are_answered_with_one_call(
    llm, one_candidate, medals_file
):
    with llm(Step(fenced(BEST_YEAR, "sql"))) as server:
        answer = ask(QUESTION, [str(medals_file)], context=one_candidate)
    assert len(server.requests) == 1
    assert sorted(answer.answer) == [[2009], [2013]]
    assert answer.answer[0] == sqlite_rows(medals_file, BEST_YEAR)[0]
    repairs = [event.detail["changes"] for event in answer.trace if event.node == "repair"]
    assert repairs == [["LIMIT 1 -> every row tied with the first (the question asks for year(s))"]]


def test_without_repair_the_one_row_stays(llm, one_candidate, medals_file):
    no_repair = dataclasses.replace(one_candidate, repair=False)
    with llm(Step(fenced(BEST_YEAR, "sql"))):
        answer = ask(QUESTION, [str(medals_file)], context=no_repair)
    assert answer.answer == sqlite_rows(medals_file, BEST_YEAR)
    assert len(answer.answer) == 1
    assert not [event for event in answer.trace if event.node == "repair"]


@pytest.mark.parametrize(
    "broken",
    [
        "SELECT no_such_column FROM Medal",  # fails
        "SELECT year FROM Medal WHERE year > 3000",  # runs to nothing
        "SELECT 2010",  # loses the first row
    ],
)
def test_a_rewrite_that_goes_wrong_gives_way_to_the_original_rows(
    llm, one_candidate, medals_file, monkeypatch, broken
):
    repair_node = importlib.import_module("agent.nodes.repair")
    monkeypatch.setattr(
        repair_node, "keep_ties", lambda code, question, dialect: Repair(broken, ("ties",))
    )
    with llm(Step(fenced(BEST_YEAR, "sql"))) as server:
        answer = ask(QUESTION, [str(medals_file)], context=one_candidate)
    assert len(server.requests) == 1
    assert answer.answer == sqlite_rows(medals_file, BEST_YEAR) and answer.code == BEST_YEAR
    assert [event.event for event in answer.trace if event.node == "repair"] == [
        "repair",
        "ties_undone",
    ]
