"""The SQL path joins the battery: `execute(..., representation="sql")` runs
the sql plugin's `run_query` inside a locked-down worker, and every attack
must end in a clear error with nothing done."""

from __future__ import annotations

import time

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
    "fts3_tokenizer_pointer": "SELECT hex(fts3_tokenizer('simple'))",
    "introspection_function": "SELECT sqlite_version(), sqlite_source_id()",
    "printf_precision_star": "SELECT length(printf('%.*c', 2000000000, 'x'))",
    "printf_huge_width": "SELECT length(printf('%2000000000d', 1))",
    "printf_computed_template": "SELECT printf((SELECT '%.' || '*c'), 2000000000, 'x')",
    "format_precision_star": "SELECT format('%.*c', 2000000000, 'x')",
    "replace_amplification": (
        "SELECT length(replace(replace(hex(zeroblob(500000)), '0', 'aaaaaaaa'), 'a', 'bbbbbbbb'))"
    ),
    "computed_zeroblob": "SELECT length(zeroblob((SELECT count(*) FROM cities) * 1000000000))",
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


def test_amplification_fails_fast_in_process_too(sandbox) -> None:
    """`pandora sql` runs `run_query` in the caller's process: five printf
    amplifications must fail at once, not after gigabytes and minutes."""
    from plugins.sql_schema import QueryFailed, QueryRefused, run_query

    started = time.monotonic()
    for _ in range(5):
        for name in ("printf_precision_star", "replace_amplification"):
            with pytest.raises((QueryFailed, QueryRefused)):
                run_query(sandbox.sql_workspace, SQL_ATTACKS[name], timeout_seconds=2.0)
    assert time.monotonic() - started < 2.0


def test_a_read_only_query_runs_in_the_worker(sandbox) -> None:
    outcome = sandbox.pool.execute(
        "SELECT name, country FROM cities WHERE country = 'FR' ORDER BY id",
        sandbox.sql_workspace,
        "sql",
    )
    assert outcome.error is None, outcome.error
    assert outcome.columns == ["name", "country"]
    assert outcome.result == [["Paris", "FR"], ["Lyon", "FR"]]


def test_ordinary_functions_stay_allowed(sandbox) -> None:
    outcome = sandbox.pool.execute(
        "SELECT upper(name), length(name), printf('%5.1f', id / 3.0), count(*) OVER (), "
        "coalesce(NULL, country), round(abs(-2.5)), substr(name, 1, 2), date('2020-01-02') "
        "FROM cities ORDER BY id LIMIT 1",
        sandbox.sql_workspace,
        "sql",
    )
    assert outcome.error is None, outcome.error
    assert outcome.result == [["PARIS", 5, "  3.3", 3, "FR", 3.0, "Pa", "2020-01-02"]]
