"""The sql representation: DDL without values, and queries that can only read."""

from __future__ import annotations

import hashlib
import sqlite3

import duckdb
import pytest

from plugins import Workspace, get_registry, load_source
from plugins.sql_schema import QueryFailed, QueryRefused, run_query


@pytest.fixture
def music(tmp_path, examples):
    copy = tmp_path / "music.sqlite"
    copy.write_bytes((examples / "music.sqlite").read_bytes())
    return copy


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


READ_QUERIES = [
    "SELECT * FROM artist ORDER BY artist_id",
    "SELECT a.name, COUNT(*) FROM album a2 JOIN artist a USING (artist_id) GROUP BY 1 ORDER BY 1",
    "SELECT c.name, SUM(p.amount) FROM purchase p JOIN customer c "
    "ON c.customer_id = p.customer_id GROUP BY c.name ORDER BY 2 DESC",
    "WITH long AS (SELECT * FROM track WHERE duration_seconds > 250) SELECT title FROM long",
    "SELECT genre FROM album EXCEPT SELECT 'Rock' ORDER BY 1",
    "SELECT typeof(customer_id), customer_id FROM purchase LIMIT 2",
]


@pytest.mark.parametrize("query", READ_QUERIES)
def test_reads_return_exactly_what_sqlite3_returns(music, query):
    result = run_query(Workspace.of([load_source(str(music))]), query)
    expected = sqlite3.connect(music).execute(query).fetchall()
    assert [tuple(row) for row in result.rows] == expected
    assert not result.truncated


WRITES = [
    ("DELETE FROM artist", QueryRefused),
    ("UPDATE artist SET name = 'x'", QueryRefused),
    ("DROP TABLE artist", QueryRefused),
    ("SELECT 1; DELETE FROM artist", QueryRefused),
    ("ATTACH DATABASE '{tmp}/stolen.db' AS stolen", QueryRefused),
    ("VACUUM INTO '{tmp}/copy.db'", QueryRefused),
    ("PRAGMA writable_schema = 1", QueryRefused),
    ("CREATE TABLE t AS SELECT 1", QueryRefused),
    ("SELECT load_extension('{tmp}/evil')", QueryFailed),
    ("SELECT * FROM artist, pragma_table_info('artist')", QueryFailed),
]


@pytest.mark.parametrize(("query", "error"), WRITES)
def test_writes_are_refused_and_nothing_changes(music, tmp_path, query, error):
    before = digest(music)
    workspace = Workspace.of([load_source(str(music))])
    with pytest.raises(error):
        run_query(workspace, query.format(tmp=tmp_path))
    assert digest(music) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["music.sqlite"]
    assert run_query(workspace, "SELECT COUNT(*) FROM artist").rows == [[6]]


def test_runaway_queries_stop_at_the_deadline_and_rows_are_capped(music):
    workspace = Workspace.of([load_source(str(music))])
    endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) "
    with pytest.raises(QueryFailed, match="time limit"):
        run_query(workspace, endless + "SELECT COUNT(*) FROM n", timeout_seconds=0.5)
    capped = run_query(workspace, endless + "SELECT x FROM n", max_rows=100)
    assert capped.truncated and len(capped.rows) == 100
    with pytest.raises(QueryRefused, match="at most 1,000,000"):
        run_query(workspace, "SELECT randomblob(500000000)")
    with pytest.raises(QueryFailed, match="too big"):  # SQLITE_LIMIT_LENGTH, built step by step
        run_query(workspace, "SELECT replace(hex(zeroblob(600000)), '0', 'aaaa')")
    assert run_query(workspace, "SELECT 1").rows == [[1]]


def test_flat_tables_become_typed_sql_tables(examples):
    workspace = Workspace.of([load_source(str(examples / "cities.csv"))])
    ddl = get_registry().representation("sql").render_schema(workspace)
    assert '"Population (2020)" INTEGER' in ddl and '"Founded" TIMESTAMP' in ddl
    assert "Tokyo" not in ddl
    result = run_query(
        workspace, 'SELECT City FROM cities WHERE "Population (2020)" > 15000000 ORDER BY 1'
    )
    assert result.rows == [["Beijing"], ["Delhi"], ["Istanbul"], ["Shanghai"]]
    with pytest.raises(QueryRefused):
        run_query(workspace, "DELETE FROM cities")
    with pytest.raises(QueryFailed):
        run_query(workspace, "SELECT * FROM cities, pragma_table_info('cities')")


def test_duckdb_queries_cannot_reach_files(tmp_path):
    path = tmp_path / "shop.duckdb"
    connection = duckdb.connect(str(path))
    connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR)")
    connection.execute("INSERT INTO item VALUES (1, 'pen'), (2, 'ink')")
    connection.close()
    secret = tmp_path / "secret.csv"
    secret.write_text("password\nhunter2\n")
    workspace = Workspace.of([load_source(str(path))])
    assert run_query(workspace, "SELECT name FROM item ORDER BY id").rows == [["pen"], ["ink"]]
    with pytest.raises(QueryFailed):
        run_query(workspace, f"SELECT * FROM read_csv('{secret}')")
    ddl = get_registry().representation("sql").render_schema(workspace)
    assert "CREATE TABLE item" in ddl and "PRIMARY KEY (id)" in ddl
