"""Results keep their labels (issue 9, item 1), through real runs on a real
CSV: index levels that mean something come back as leading columns, every
result has `columns`, values are JSON (numbers stay numbers, missing is
null), `total_rows` counts rows before caps and `max_rows` is per call."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest

from plugins import Workspace, load_source
from plugins.executor import ExecutorPool
from plugins.executor.models import Limits
from plugins.executor.results import normalise, render_value

ORDERS = """Nation,Quantity,Shipped
France,5,2020-01-02
Spain,9,2020-01-03
France,7,
Italy,6,2021-05-06
Spain,3,2020-02-01
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    path = tmp_path_factory.mktemp("labels") / "orders.csv"
    path.write_text(ORDERS)
    workspace = Workspace.of([load_source(str(path))])
    pool = ExecutorPool(max_workers=1)

    def execute(code: str, **options):
        outcome = pool.execute(code, workspace, **options)
        assert outcome.error is None, outcome.error
        return outcome

    yield execute
    pool.shutdown()


def test_a_grouped_series_keeps_its_labels(run) -> None:
    outcome = run('result = orders.groupby("Nation")["Quantity"].sum().nlargest(2)')
    assert outcome.columns == ["Nation", "Quantity"]
    assert outcome.result == [["France", 12], ["Spain", 12]]


def test_set_index_and_value_counts_keep_their_labels(run) -> None:
    indexed = run('result = orders.set_index("Nation")[["Quantity"]].head(2)')
    assert indexed.columns == ["Nation", "Quantity"]
    assert indexed.result == [["France", 5], ["Spain", 9]]
    counted = run("result = orders.Nation.value_counts().sort_index()")
    assert counted.columns == ["Nation", "count"]
    assert counted.result == [["France", 2], ["Italy", 1], ["Spain", 2]]


def test_positions_left_by_filtering_are_not_labels(run) -> None:
    outcome = run("result = orders[orders.Quantity > 5].Nation")
    assert outcome.columns == ["Nation"]
    assert outcome.result == [["Spain"], ["France"], ["Italy"]]


def test_a_multi_level_index_gives_one_column_per_level(run) -> None:
    outcome = run('result = orders.groupby(["Nation", "Quantity"]).size().head(2)')
    assert outcome.columns == ["Nation", "Quantity", "result"]
    assert outcome.result == [["France", 5, 1], ["France", 7, 1]]


def test_values_are_json_and_missing_is_null(run) -> None:
    outcome = run('result = orders[["Quantity", "Shipped"]].head(3)')
    assert outcome.result == [[5, "2020-01-02"], [9, "2020-01-03"], [7, None]]
    scalar = run("result = orders.Quantity.mean()")
    assert scalar.columns == ["result"] and scalar.result == [[6.0]]


def test_total_rows_and_max_rows_per_call(run) -> None:
    outcome = run("result = orders.Nation", max_rows=2)
    assert outcome.result == [["France"], ["Spain"]]
    assert outcome.total_rows == 5 and outcome.truncated


def test_rendering_compares_old_text_answers_and_new_values_equal() -> None:
    """A stored answer "3" (the old rows of strings) and a new 3 or 3.0 render alike."""
    assert render_value(3) == render_value(3.0) == render_value("3") == "3"
    assert render_value(None) == render_value(np.nan) == "None"
    assert render_value(pd.Timestamp("2020-01-02")) == "2020-01-02"
    assert render_value(2.5) == "2.5"


def test_cell_cap_counts_cells_not_characters() -> None:
    table = normalise([[""] * 1000] * 1000, Limits(max_cells=5000))
    assert sum(len(row) for row in table.rows) + len(table.columns) <= 5000
    assert table.truncated and table.total_rows == 1000
