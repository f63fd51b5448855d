"""The direct-answer baseline's view of the data: BOX rows as CSV, cut to a
character budget shared equally by the BOXes."""

from __future__ import annotations

import pandas as pd

from agent.data_text import boxes_as_text
from plugins import Box


def box(name: str, rows: int) -> Box:
    """A BOX of `rows` numbered rows."""
    frame = pd.DataFrame({"id": range(rows), "label": [f"item {n}" for n in range(rows)]})
    return Box(name=name, frame=frame, origin="test")


def test_a_small_box_is_shown_whole() -> None:
    text = boxes_as_text([box("shop", 3)])
    expected = ["### shop (3 rows)", "id,label", "0,item 0", "1,item 1", "2,item 2"]
    assert text.splitlines() == expected


def test_big_boxes_share_the_budget_and_say_they_were_cut() -> None:
    text = boxes_as_text([box("shop", 1000), box("sale", 1000)], max_characters=400)
    shop, sale = text.split("\n\n")
    for block, name in ((shop, "shop"), (sale, "sale")):
        lines = block.splitlines()
        assert lines[0] == f"### {name} (1000 rows, the first {len(lines) - 2} shown)"
        assert lines[1] == "id,label" and lines[2] == "0,item 0"
        assert len("\n".join(lines[1:])) <= 200
