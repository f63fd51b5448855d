"""Turn whatever a program left in `result` into named columns and rows of JSON values.

DataFrame -> its rows; Series, Index, 1-D array, list, tuple, set -> one value
per row (an element that is itself a list or tuple becomes a row of several
cells); dict -> [key, value] rows; 2-D array -> its rows; anything else ->
[[value]]. A Series or DataFrame whose index is meaningful (named, or not
integer positions) keeps it as leading column(s). Values follow the rules of
`json_cell`; docs/executor.md has the table.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from plugins.executor.models import Cell, Limits

UNNAMED = "result"
"""The column name of a value that has none (a scalar, a list, an unnamed Series)."""

SCALARS = (str, bytes, int, float, complex, np.generic, dt.date, dt.time, dt.timedelta)
"""Values that are one cell whatever else they are (a str is iterable)."""

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Table:
    """Normalised columns and rows, the row count before caps, and whether a cap cut them."""

    columns: list[str]
    rows: list[list[Cell]]
    total_rows: int
    truncated: bool


def valid_text(text: str) -> str:
    """`text` as valid UTF-8 can carry it: lone surrogates become U+FFFD."""
    if text.isascii():
        return text
    return _SURROGATE.sub("\ufffd", text)


def json_cell(value: Any) -> Cell:
    """One value as JSON: numbers stay numbers (NaN and infinities become null),
    missing values (None, NaN, NaT, pd.NA) null, bools stay bools, datetimes ISO
    text (midnight without a time zone -> the date), bytes decoded as UTF-8,
    anything else its `str`."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dt.datetime):  # pd.Timestamp included
        if value.tzinfo is None and value.time() == dt.time():
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes):
        return valid_text(value.decode("utf-8", errors="replace"))
    return valid_text(str(value))


def render_value(value: Any) -> str:
    """One cell as text, for display and for comparing answers: missing -> "None",
    integral floats -> "3" (so 3, 3.0 and "3" compare equal), other floats ->
    the shortest round-trip repr, datetimes as in `json_cell`."""
    cell = json_cell(value)
    if cell is None:
        return "None"
    if isinstance(cell, float) and cell.is_integer() and abs(cell) < 1e16:
        return str(int(cell))
    if isinstance(cell, float):
        return repr(cell)
    return str(cell)


def normalise(value: Any, limits: Limits, max_rows: int | None = None) -> Table:
    """The columns and rows of `value`, cut at `max_rows` (default: the limits'),
    at the limits' cell count, cell length and total characters."""
    row_cap = limits.max_rows if max_rows is None else max_rows
    columns, raw_rows, total = _table_of(value, row_cap)
    budget = _Budget(limits)
    kept_columns: list[str] = []
    for name in columns:
        kept = budget.text(valid_text(name))
        if budget.exhausted:
            break
        kept_columns.append(kept)
    rows: list[list[Cell]] = []
    for raw_row in raw_rows:
        row = [budget.cell(json_cell(cell)) for cell in raw_row]
        if budget.exhausted:
            break
        rows.append(row)
    width = max((len(row) for row in rows), default=len(kept_columns))
    kept_columns += [str(index) for index in range(len(kept_columns), width)]
    truncated = budget.exhausted or budget.cut or len(rows) < total
    return Table(kept_columns, rows, total, truncated)


class _Budget:
    """Counts cells and characters against the limits; cuts long cells."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.cells = 0
        self.characters = 0
        self.cut = False
        self.exhausted = False

    def text(self, text: str) -> str:
        self.cells += 1
        if len(text) > self.limits.max_cell_chars:
            text, self.cut = text[: self.limits.max_cell_chars], True
        self.characters += len(text)
        if self.cells > self.limits.max_cells or self.characters > self.limits.max_result_chars:
            self.exhausted = True
        return text

    def cell(self, cell: Cell) -> Cell:
        if isinstance(cell, str):
            return self.text(cell)
        self.text("")
        return cell


def _table_of(value: Any, max_rows: int) -> tuple[list[str], Iterable[Iterable[Any]], int]:
    """Column names, raw rows (at most `max_rows`) and how many rows `value` has in all."""
    if value is None or isinstance(value, SCALARS):
        return [UNNAMED], [[value]], 1
    if isinstance(value, pd.DataFrame):
        return _frame_table(value, max_rows)
    if isinstance(value, pd.Series):
        name = UNNAMED if value.name is None else _column_name(value.name)
        return _frame_table(value.to_frame(name=name), max_rows)
    if isinstance(value, pd.MultiIndex):
        names = [
            _column_name(n) if n is not None else f"level_{i}" for i, n in enumerate(value.names)
        ]
        return names, value[:max_rows].tolist(), len(value)
    if isinstance(value, pd.Index):
        name = UNNAMED if value.name is None else _column_name(value.name)
        return [name], ([v] for v in value[:max_rows].tolist()), len(value)
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return [UNNAMED], [[value.item()]], 1
        return _list_table(value[:max_rows].tolist(), len(value))
    if isinstance(value, dict):
        items = list(itertools.islice(value.items(), max_rows))
        return ["key", "value"], ([k, v] for k, v in items), len(value)
    if isinstance(value, set | frozenset):
        ordered = sorted(value, key=render_value)
        return _list_table(ordered[:max_rows], len(ordered))
    if isinstance(value, list | tuple | range):
        return _list_table(value[:max_rows], len(value))
    if _is_lazy_iterable(value):
        items = list(itertools.islice(value, max_rows + 1))
        return _list_table(items[:max_rows], len(items))
    return [UNNAMED], [[value]], 1


def _frame_table(frame: pd.DataFrame, max_rows: int) -> tuple[list[str], Iterator[Any], int]:
    head = frame.iloc[:max_rows]
    columns = [_column_name(name) for name in frame.columns]
    values = head.itertuples(index=False, name=None)
    if not index_is_meaningful(frame.index):
        return columns, values, len(frame)
    index = head.index
    names = [
        _column_name(name)
        if name is not None
        else ("index" if index.nlevels == 1 else f"level_{i}")
        for i, name in enumerate(index.names)
    ]
    labels = index.tolist() if index.nlevels > 1 else ([label] for label in index.tolist())
    rows = ([*label, *row] for label, row in zip(labels, values, strict=True))
    return names + columns, rows, len(frame)


def index_is_meaningful(index: pd.Index) -> bool:
    """True when an index carries labels worth showing: it has a name (set_index,
    groupby, value_counts) or holds something other than integer positions
    (strings, dates). Positions left over from filtering or sorting are not."""
    if any(name is not None for name in index.names):
        return True
    return not pd.api.types.is_integer_dtype(index.dtype)


def _list_table(items: Any, total: int) -> tuple[list[str], Iterator[list[Any]], int]:
    rows = [_as_row(item) for item in items]
    width = max((len(row) for row in rows), default=1)
    columns = [UNNAMED] if width == 1 else [str(index) for index in range(width)]
    return columns, iter(rows), total


def _column_name(name: Any) -> str:
    if isinstance(name, tuple):
        return "_".join(str(part) for part in name if str(part))
    return str(name)


def _as_row(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else [value]


def _is_lazy_iterable(value: Any) -> bool:
    """Views and generators (dict_keys, map, zip, ...) count as lists;
    strings, bytes and other scalars do not."""
    if isinstance(value, str | bytes):
        return False
    return isinstance(value, Iterable) and not hasattr(value, "shape")
