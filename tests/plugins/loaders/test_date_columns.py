"""Date columns of real CSV files: the fast strict-ISO reading and the careful
one (padding, missing-value spellings, other layouts) give the same dates,
and a column with one cell that is no date stays text, untouched."""

from __future__ import annotations

import pandas as pd
import pytest

from plugins import load_source


def loaded_column(tmp_path, cells: list[str]) -> pd.Series:
    path = tmp_path / "events.csv"
    path.write_text("id,when\n" + "".join(f'{n},"{cell}"\n' for n, cell in enumerate(cells)))
    return next(iter(load_source(str(path)).handle.values()))["when"]


@pytest.mark.parametrize(
    "cells",
    [
        ["2020-01-01", "2021-02-03 04:05:06", ""],
        [" 2020-01-01", "2021-02-03 04:05:06", "n/a"],
        ["2020-01-01", "2021-02-03 04:05:06", "-"],
    ],
)
def test_iso_dates_with_or_without_padding_and_missing_spellings(tmp_path, cells) -> None:
    column = loaded_column(tmp_path, cells)
    expected = [pd.Timestamp("2020-01-01"), pd.Timestamp("2021-02-03 04:05:06")]
    assert pd.api.types.is_datetime64_any_dtype(column)
    assert column.tolist()[:2] == expected and pd.isna(column.iloc[2])


def test_other_layouts_are_dates_when_every_cell_is_one(tmp_path) -> None:
    column = loaded_column(tmp_path, ["3 March 2020", "2020-01-05", "n/a"])
    assert column.tolist()[:2] == [pd.Timestamp("2020-03-03"), pd.Timestamp("2020-01-05")]


def test_one_cell_that_is_no_date_keeps_the_column_text(tmp_path) -> None:
    column = loaded_column(tmp_path, ["2020-01-01", "2020-01-02", "soon"])
    assert column.tolist() == ["2020-01-01", "2020-01-02", "soon"]


def test_a_column_that_starts_with_thousands_of_missing_cells_is_still_typed(tmp_path) -> None:
    column = loaded_column(tmp_path, [""] * 3000 + ["2020-01-01"])
    assert pd.api.types.is_datetime64_any_dtype(column) and column.iloc[-1] == pd.Timestamp(
        "2020-01-01"
    )
