"""Result comparison as execution accuracy does it, on hand-made rows."""

from __future__ import annotations

import datetime as dt

from plugins.pandas_box.sql_to_pandas.comparison import query_is_ordered, rows_match


def test_rows_are_a_multiset_without_order_by() -> None:
    """Order does not count, multiplicity does."""
    assert rows_match([["a", 1], ["b", 2]], [["b", 2], ["a", 1]], ordered=False)
    assert not rows_match([["a", 1], ["a", 1]], [["a", 1]], ordered=False)
    assert not rows_match([["a", 1], ["b", 2]], [["b", 2], ["a", 1]], ordered=True)


def test_values_compare_by_value_not_type() -> None:
    """3, 3.0, "3"; 1/3 to six places; True and 1; midnight and the date; None and NaN."""
    assert rows_match([[3, 1 / 3]], [["3", 0.3333333333]], ordered=True)
    assert rows_match([[True, None]], [[1, float("nan")]], ordered=True)
    assert rows_match([[dt.datetime(2020, 5, 1)]], [["2020-05-01 00:00:00"]], ordered=True)
    assert not rows_match([[0.5]], [[0.51]], ordered=True)
    assert not rows_match([["a"]], [["A"]], ordered=True)


def test_only_a_top_level_order_by_orders() -> None:
    """An ORDER BY inside a subquery does not make the result ordered."""
    assert query_is_ordered("SELECT a FROM t ORDER BY a")
    assert query_is_ordered("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1")
    assert not query_is_ordered("SELECT a FROM t WHERE a IN (SELECT a FROM u ORDER BY a LIMIT 1)")
