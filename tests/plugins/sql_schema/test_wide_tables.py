"""A CSV wider than SQLite's 2,000 columns gets a one-line error naming the
problem in every SQL path (query, schema, executor), not a traceback; the
pandas representation still reads it."""

from __future__ import annotations

import pytest

from plugins import Workspace, get_registry, load_source
from plugins.errors import BadInputError
from plugins.executor import ExecutorPool
from plugins.sql_schema import run_query


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    path = tmp_path_factory.mktemp("wide") / "wide.csv"
    header = ",".join(f"c{index}" for index in range(2_001))
    path.write_text(header + "\n" + ",".join("1" for _ in range(2_001)) + "\n")
    return Workspace.of([load_source(str(path))])


def _assert_one_line_naming_the_problem(error: BadInputError) -> None:
    message = str(error)
    assert "\n" not in message
    assert "2,001 columns" in message and "2,000" in message and "pandas" in message


def test_a_query_on_a_too_wide_table_fails_in_one_line(wide) -> None:
    with pytest.raises(BadInputError) as raised:
        run_query(wide, "SELECT c0 FROM wide")
    _assert_one_line_naming_the_problem(raised.value)


def test_the_schema_of_a_too_wide_table_fails_in_one_line(wide) -> None:
    with pytest.raises(BadInputError) as raised:
        get_registry().representation("sql").render_schema(wide)
    _assert_one_line_naming_the_problem(raised.value)


def test_the_executor_reports_it_as_bad_input_and_pandas_still_works(wide) -> None:
    pool = ExecutorPool(max_workers=1)
    try:
        with pytest.raises(BadInputError) as raised:
            pool.execute("SELECT c0 FROM wide", wide, "sql")
        _assert_one_line_naming_the_problem(raised.value)
        outcome = pool.execute("result = wide.shape[1]", wide, "pandas")
    finally:
        pool.shutdown()
    assert outcome.result == [[2_001]]
