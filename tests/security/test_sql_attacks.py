"""The SQL path joins the battery: `execute(..., representation="sql")` runs
the sql plugin's `run_query` inside a locked-down worker, and every attack
must end in a clear error with nothing done."""

from __future__ import annotations

import pytest

SQL_ATTACKS = {
    "multiple_statements": "SELECT 1; DROP TABLE cities",
    "drop": "DROP TABLE cities",
    "insert": "INSERT INTO cities VALUES (99, 'X', 'Y')",
    "attach": "ATTACH DATABASE 'DIR/other.sqlite' AS other",
    "vacuum_into": "VACUUM INTO 'DIR/copy.sqlite'",
    "pragma": "PRAGMA writable_schema = ON",
    "load_extension": "SELECT load_extension('/tmp/evil.so')",
    "runaway_recursive_cte": (
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r"
    ),
    "huge_blob": "SELECT length(zeroblob(2000000000))",
    "huge_random_blob": "SELECT length(randomblob(2000000000))",
}


@pytest.mark.parametrize("query", [pytest.param(q, id=n) for n, q in SQL_ATTACKS.items()])
def test_sql_attack_ends_in_a_clear_error_with_nothing_done(sandbox, query: str) -> None:
    outcome = sandbox.pool.execute(
        query.replace("DIR", str(sandbox.directory)),
        sandbox.sql_workspace,
        "sql",
        timeout_seconds=3.0,
    )
    assert outcome.result is None
    assert outcome.error is not None and outcome.error.message
    sandbox.assert_nothing_done()


def test_a_read_only_query_runs_in_the_worker(sandbox) -> None:
    outcome = sandbox.pool.execute(
        "SELECT name, country FROM cities WHERE country = 'FR' ORDER BY id",
        sandbox.sql_workspace,
        "sql",
    )
    assert outcome.error is None, outcome.error
    assert outcome.columns == ["name", "country"]
    assert outcome.result == [["Paris", "FR"], ["Lyon", "FR"]]
