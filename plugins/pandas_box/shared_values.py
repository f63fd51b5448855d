"""Notes on fields of different sources that share values: how a program
joins BOXes that no foreign key links."""

from __future__ import annotations

import itertools

import pandas as pd

from plugins.loaders.cell_types import is_text
from plugins.model import Box

SHARED_VALUES_SAMPLE = 2000
SHARED_VALUES_MIN = 2


def shared_value_notes(boxes: list[Box], shown: list[str] | None) -> list[str]:
    """One comment per pair of text fields of different sources that share
    values (at least two), so a program knows how to join across sources;
    only BOXes in `shown` count (None: every BOX)."""
    fields = [
        (box, str(column), _text_values(box.frame[column]))
        for box in boxes
        if shown is None or box.name in shown
        for column in box.frame.columns
        if is_text(box.frame[column])
    ]
    notes = []
    for (box, column, values), (other, other_column, other_values) in itertools.combinations(
        fields, 2
    ):
        if box.origin == other.origin:
            continue
        shared = values.keys() & other_values.keys()
        if len(shared) >= SHARED_VALUES_MIN:
            example = values[sorted(shared)[0]]
            notes.append(
                f"# shared values: {box.name}[{column!r}] and {other.name}[{other_column!r}] "
                f"({len(shared)} in common, e.g. {example!r}); join with "
                f"{box.name}.merge({other.name}, left_on={column!r}, right_on={other_column!r})"
            )
    return notes


def _text_values(column: pd.Series) -> dict[str, str]:
    """Distinct values of a text column, case-folded, each with one spelling as found."""
    values = column.dropna().astype(str).str.strip().drop_duplicates().head(SHARED_VALUES_SAMPLE)
    return {value.casefold(): value for value in values}
