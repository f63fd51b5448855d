"""Finding the total row that closes a table: labelled a total, and adding up."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from plugins.total_rows import TotalRow, find_total_row


def _medals(last: list[object]) -> pd.DataFrame:
    rows = [["1", "China", 127, 63], ["2", "Japan", 46, 56], ["3", "Korea", 32, 48], last]
    return pd.DataFrame(rows, columns=["Rank", "Nation", "Gold", "Silver"])


def test_a_medal_table_closing_with_its_totals() -> None:
    assert find_total_row(_medals(["Total", "Total", 205, 167])) == TotalRow(
        label_column="Rank", label="Total", summed_columns=("Gold", "Silver")
    )


def test_one_column_that_adds_up_is_enough() -> None:
    total = find_total_row(_medals(["", "Totals:", 205, 999]))
    assert total == TotalRow("Nation", "Totals:", ("Gold",))


@pytest.mark.parametrize("label", ["Totaal", "Career*", "Gesamt:", "SUM"])
def test_total_labels_of_other_languages_and_sports_tables(label: str) -> None:
    assert find_total_row(_medals(["", label, 205, 167])) == TotalRow(
        "Nation", label, ("Gold", "Silver")
    )


def test_numbers_written_as_text_with_thousands_separators() -> None:
    frame = pd.DataFrame(
        {
            "Year": ["2001", "2002", "2003", "TOTAL"],
            "Visitors": ["1,200", "800", "1,000.5", "3,000.5"],
        }
    )
    assert find_total_row(frame) == TotalRow("Year", "TOTAL", ("Visitors",))


def test_numpy_numbers_and_missing_cells() -> None:
    frame = pd.DataFrame(
        {
            "Club": ["A", "B", "C", "Overall"],
            "Goals": np.array([3, 4, 5, 12], dtype=np.int64),
            "Caps": [1.5, np.nan, 2.5, 4.0],
        }
    )
    assert find_total_row(frame) == TotalRow("Club", "Overall", ("Goals", "Caps"))


def test_a_team_called_total_is_not_a_total_row() -> None:
    assert find_total_row(_medals(["4", "Total", 3, 1])) is None


def test_a_total_above_the_last_row_is_not_taken() -> None:
    frame = _medals(["Total", "Total", 205, 167])
    frame.loc[len(frame)] = ["5", "Guam", 0, 1]
    assert find_total_row(frame) is None


def test_booleans_are_not_numbers() -> None:
    frame = pd.DataFrame({"Name": ["a", "b", "c", "Total"], "Won": [True, True, False, 2]})
    assert find_total_row(frame) is None


def test_a_table_of_two_rows_has_no_total() -> None:
    assert find_total_row(pd.DataFrame({"Name": ["a", "Total"], "Score": [3, 3]})) is None


def test_an_empty_table() -> None:
    assert find_total_row(pd.DataFrame({"Name": []})) is None
