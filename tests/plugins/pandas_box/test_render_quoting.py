"""Rendered BOX schemas are Python whatever the names and values hold
(quotes, newlines, backslashes, unicode): they parse with `ast.parse`, and
the parsed code holds exactly the field names and example values, so no
name or value reaches code position."""

from __future__ import annotations

import ast

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from plugins.model import Box, ForeignKey
from plugins.pandas_box.render import MAX_VALUE_CHARACTERS, render_boxes_schema

AWKWARD_TEXT = st.text(
    alphabet=st.sampled_from(["a", "'", '"', "\n", "\r", "\\", "#", "é", "\u2028", "}", "]", " "])
    | st.characters(exclude_categories=("Cs",)),
    max_size=30,
)


@st.composite
def boxes(draw: st.DrawFn) -> Box:
    names = draw(st.lists(AWKWARD_TEXT, min_size=1, max_size=4, unique=True))
    rows = draw(st.integers(min_value=1, max_value=3))
    columns = {name: draw(st.lists(AWKWARD_TEXT, min_size=rows, max_size=rows)) for name in names}
    keys = [
        ForeignKey(
            field=draw(AWKWARD_TEXT), ref_box=draw(AWKWARD_TEXT), ref_field=draw(AWKWARD_TEXT)
        )
        for _ in range(draw(st.integers(min_value=0, max_value=2)))
    ]
    return Box(
        name="box", frame=pd.DataFrame(columns), origin=draw(AWKWARD_TEXT), foreign_keys=keys
    )


@settings(max_examples=200, deadline=None)
@given(box=boxes(), values=st.integers(min_value=0, max_value=3))
def test_rendered_schema_parses_and_holds_exactly_the_names_and_values(box: Box, values: int):
    text = render_boxes_schema([box], values)
    tree = ast.parse(text)
    assignments = [node for node in tree.body if isinstance(node, ast.Assign)]
    assert len(assignments) == 1  # comments stayed comments: nothing else in code position
    columns = assignments[0].value.args[0]
    assert [key.value for key in columns.keys] == list(box.frame.columns)
    for name, shown in zip(box.frame.columns, columns.values, strict=True):
        literals = [element.value for element in shown.elts[:-1]]
        expected = box.frame[name].dropna().drop_duplicates().head(values).tolist()
        assert literals == [_shown(value) for value in expected]
        assert isinstance(shown.elts[-1], ast.Constant) and shown.elts[-1].value is Ellipsis


def _shown(value: str) -> str:
    cut = MAX_VALUE_CHARACTERS - 3
    return value if len(value) <= MAX_VALUE_CHARACTERS else value[:cut] + "..."


def test_numbers_stay_numbers_and_the_dtype_is_a_comment():
    box = Box(name="prices", frame=pd.DataFrame({"price": [2.5, 3.0], "n": [1, 2]}), origin="shop")
    text = render_boxes_schema([box], values=2)
    assert "    'price': [2.5, 3.0, ...],  # float64" in text
    assert "    'n': [1, 2, ...],  # int64" in text
    ast.parse(text)


@settings(max_examples=100, deadline=None)
@given(label_column=AWKWARD_TEXT.filter(lambda name: name != "Gold"))
def test_the_total_row_note_is_a_comment_whose_condition_finds_that_row(label_column: str):
    frame = pd.DataFrame({label_column: ["a", "b", "Total"], "Gold": [2, 3, 5]})
    text = render_boxes_schema([Box(name="medals", frame=frame, origin="m.csv")], values=3)
    tree = ast.parse(text)
    assert len([node for node in tree.body if isinstance(node, ast.Assign)]) == 1
    (note,) = [line for line in text.splitlines() if line.startswith("# the row where ")]
    condition = note.removeprefix("# the row where ").split(" adds up ")[0]
    mask = eval(condition, {"medals": frame})  # the note's own Python expression
    assert mask.tolist() == [False, False, True]


def test_no_total_row_note_without_values():
    frame = pd.DataFrame({"Nation": ["a", "b", "Total"], "Gold": [2, 3, 5]})
    text = render_boxes_schema([Box(name="medals", frame=frame, origin="m.csv")], values=0)
    assert "Total" not in text
