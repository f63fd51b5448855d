"""Turn whatever a program left in `result` into rows of strings.

DataFrame -> its rows; Series, Index, 1-D array, list, tuple, set -> one value
per row (an element that is itself a list or tuple becomes a row of several
cells); dict -> [key, value] rows; 2-D array -> its rows; anything else ->
[[value]]. The rendering of single values is documented in docs/executor.md.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from plugins.executor.models import Limits

MISSING = "None"


@dataclass
class Rows:
    """Normalised rows and whether any cap cut them."""

    rows: list[list[str]]
    truncated: bool


def render_value(value: Any) -> str:
    """One cell as a string: missing values -> "None", integral floats -> "3",
    other floats -> shortest round-trip repr, midnight timestamps -> the date."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return MISSING
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return MISSING
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
        return repr(value)
    if isinstance(value, dt.datetime):  # pd.Timestamp included
        if value.tzinfo is None and value.time() == dt.time():
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace")
    return str(value)


def normalise(value: Any, limits: Limits) -> Rows:
    """The rows of `value`, cut at `limits` (rows, cell length, total size)."""
    rows_iter, total = _rows_of(value, limits.max_rows)
    rows: list[list[str]] = []
    truncated = total > limits.max_rows
    budget = limits.max_result_chars
    for raw_row in rows_iter:
        row = []
        for cell in raw_row:
            text = render_value(cell)
            if len(text) > limits.max_cell_chars:
                text, truncated = text[: limits.max_cell_chars], True
            budget -= len(text)
            row.append(text)
        if budget < 0:
            truncated = True
            break
        rows.append(row)
    return Rows(rows, truncated)


def _rows_of(value: Any, max_rows: int) -> tuple[Iterable[Iterable[Any]], int]:
    """Raw rows (at most `max_rows`) and how many rows `value` has in all."""
    if isinstance(value, pd.DataFrame):
        head = value.head(max_rows)
        return head.itertuples(index=False, name=None), len(value)
    if isinstance(value, pd.Series | pd.Index):
        return ([v] for v in value[:max_rows].tolist()), len(value)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return [[value.item()]], 1
        head = value[:max_rows].tolist()
        return (_as_row(v) for v in head), len(value)
    if isinstance(value, dict):
        items = list(value.items())
        return ([k, v] for k, v in items[:max_rows]), len(items)
    if isinstance(value, set | frozenset):
        ordered = sorted(value, key=render_value)
        return (_as_row(v) for v in ordered[:max_rows]), len(ordered)
    if isinstance(value, list | tuple | range):
        return (_as_row(v) for v in value[:max_rows]), len(value)
    if _is_lazy_iterable(value):
        items = list(itertools.islice(value, max_rows + 1))
        return (_as_row(v) for v in items[:max_rows]), len(items)
    return [[value]], 1


def _as_row(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _is_lazy_iterable(value: Any) -> bool:
    """Views and generators (dict_keys, map, zip, ...) count as lists;
    strings, bytes and other scalars do not."""
    if isinstance(value, str | bytes):
        return False
    return isinstance(value, Iterable) and not hasattr(value, "shape")
