"""Comparing two query results the way execution accuracy does (Spider's rule).

Rows are compared as multisets, or as sequences when the query orders its
rows (a top-level ORDER BY). Cells are compared by value, not by type: the
number 3, the float 3.0 and the text "3" are equal (both engines' results go
through `render_value`), floats agree to 6 decimal places, True is 1 (SQLite
has no booleans), and a midnight timestamp equals its date.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from plugins.executor.results import render_value

MIDNIGHT = re.compile(r"^(\d{4}-\d{2}-\d{2})[ T]00:00(:00(\.0+)?)?$")
FLOAT_DECIMALS = 6

Cell = str | float | None


def canonical_cell(value: Any) -> Cell:
    """One cell in a form where equal values are equal Python objects."""
    if isinstance(value, bool):
        return float(value)
    text = render_value(value)
    if text == "None":
        return None
    try:
        number = float(text)
    except ValueError:
        midnight = MIDNIGHT.match(text)
        return midnight.group(1) if midnight else text
    if math.isnan(number):
        return None
    if math.isinf(number):
        return number
    return round(number, FLOAT_DECIMALS) + 0.0


def canonical_rows(rows: Sequence[Sequence[Any]]) -> list[tuple[Cell, ...]]:
    """Every row with canonical cells."""
    return [tuple(canonical_cell(cell) for cell in row) for row in rows]


def rows_match(
    actual: Sequence[Sequence[Any]], expected: Sequence[Sequence[Any]], ordered: bool
) -> bool:
    """Whether two results hold the same rows (in the same order when `ordered`)."""
    left, right = canonical_rows(actual), canonical_rows(expected)
    if ordered:
        return left == right
    return Counter(left) == Counter(right)


def query_is_ordered(sql: str) -> bool:
    """Whether the query's outermost level has an ORDER BY (then row order counts)."""
    try:
        statement = sqlglot.parse_one(sql, read="sqlite")
    except ParseError:
        return "order by" in sql.lower()
    if isinstance(statement, exp.Subquery):
        statement = statement.unnest()
    return statement.args.get("order") is not None
