"""A table's closing total row, found so that the schema can point it out.

Tables copied from spreadsheets and web pages often end with a row that adds
up the rows above it ("Total", "Totals", "Overall"). A program that counts,
sums or ranks over every row then counts everything twice, and the local
model writes such programs unless the schema says the row is there: on
WikiTableQuestions two programs summing a medal table's "Total" row outvoted
two readings that had the answer (docs/evaluation.md, "Readings on by
default"). A row is taken for a total only when it is the last one, a cell
of it says "total" and at least one numeric column holds there the sum of
that column above it, so a team or a place called "Total" is not mistaken
for one.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass
from typing import Any

import pandas as pd

TOTAL_LABELS = frozenset(
    {
        *("total", "totals", "grand total", "overall", "all", "sum"),
        # athletes' statistics tables
        *("career", "career total", "career totals"),
        # tables copied from Dutch, German, Italian and Scandinavian pages
        *("totaal", "gesamt", "insgesamt", "summe", "totale", "totalt"),
    }
)
"""What a total row's label cell says, case and trailing colons or footnote
marks (`*`) aside."""
MOST_ROWS = 5_000
"""Larger tables are not checked: a total row is a feature of small, displayed tables."""
NUMBER = re.compile(r"[-+]?\d[\d,]*(\.\d+)?")


@dataclass(frozen=True)
class TotalRow:
    """The last row of a table, labelled `label` in `label_column`; each of
    `summed_columns` holds there the sum of the rows above it."""

    label_column: str
    label: str
    summed_columns: tuple[str, ...]


def find_total_row(frame: pd.DataFrame) -> TotalRow | None:
    """The total row that closes `frame`, or None when its last row is not
    labelled a total or no numeric column adds up to it."""
    if not 3 <= len(frame) <= MOST_ROWS:
        return None
    last = frame.iloc[-1]
    labelled = [column for column, value in last.items() if _is_total_label(value)]
    if not labelled:
        return None
    above = frame.iloc[:-1]
    summed = tuple(
        str(column)
        for column, value in last.items()
        if column not in labelled and _adds_up(above[column], value)
    )
    if not summed:
        return None
    return TotalRow(str(labelled[0]), str(last[labelled[0]]).strip(), summed)


def _is_total_label(value: Any) -> bool:
    """Whether a cell reads as the label of a total row."""
    return isinstance(value, str) and value.strip().rstrip(":*").casefold() in TOTAL_LABELS


def _adds_up(column: pd.Series, total: Any) -> bool:
    """Whether `total` is the sum of the numbers in `column` (at least two of
    them), within rounding."""
    expected = _number(total)
    numbers = [number for number in map(_number, column) if number is not None]
    if expected is None or len(numbers) < 2:
        return False
    return math.isclose(sum(numbers), expected, rel_tol=1e-3, abs_tol=1e-6)


def _number(value: Any) -> float | None:
    """A cell as a number: an int or float, or text that writes one (commas
    as thousands separators); None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Real):  # numpy's integers are not ints
        return None if math.isnan(value) else float(value)
    if isinstance(value, str) and NUMBER.fullmatch(value.strip()):
        return float(value.strip().replace(",", ""))
    return None
