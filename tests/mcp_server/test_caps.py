"""Caps on what one call returns: rows, characters, long cells."""

from __future__ import annotations

import json

from mcp_server.caps import cap_rows, cap_text


def test_rows_beyond_the_cap_are_cut_and_flagged() -> None:
    capped = cap_rows([[number] for number in range(10)], max_rows=3, max_chars=1000)
    assert capped.rows == [[0], [1], [2]]
    assert capped.truncated


def test_rows_within_the_caps_are_kept_whole() -> None:
    rows = [["a", 1, None, 2.5, True]] * 3
    capped = cap_rows(rows, max_rows=3, max_chars=1000)
    assert capped.rows == rows
    assert not capped.truncated


def test_characters_beyond_the_budget_stop_the_rows() -> None:
    rows = [["x" * 90] for _ in range(100)]
    capped = cap_rows(rows, max_rows=100, max_chars=1000)
    assert capped.truncated
    assert 1 <= len(capped.rows) < 100
    assert len(json.dumps(capped.rows)) <= 1000 + 100


def test_a_huge_cell_is_cut_but_its_row_kept() -> None:
    capped = cap_rows([["y" * 10_000, 7]], max_rows=5, max_chars=1000)
    assert capped.truncated
    assert capped.rows[0][1] == 7
    assert len(capped.rows[0][0]) == 250
    assert capped.rows[0][0].endswith("…")


def test_text_is_cut_and_marked() -> None:
    assert cap_text("short", 10) == "short"
    assert cap_text("a" * 20, 10) == "a" * 9 + "…"
