"""The one-sentence answer of simple result shapes, and None for the rest."""

from __future__ import annotations

import pytest

from plugins.answer_sentence import answer_sentence


@pytest.mark.parametrize(
    ("columns", "rows", "sentence"),
    [
        (["albums"], [[8]], "The answer is 8."),
        (["average"], [[10.745000001]], "The answer is 10.745."),
        (["average"], [[3.0]], "The answer is 3."),
        (["tiny"], [[1e-9]], "The answer is 1e-09."),
        (["sold_out"], [[True]], "The answer is yes."),
        (["title"], [[None]], "The answer is empty."),
        (
            ["name", "total_spent"],
            [["Chen Wei", 4.86]],
            "The answer is Chen Wei, with total spent 4.86.",
        ),
        (["genre"], [["Rock"], ["Jazz"]], "The answers are Rock and Jazz."),
        (
            ["genre", "price"],
            [["Rock", 10.74], ["Jazz", 8.99], ["Pop", 7.99]],
            "The answers are Rock (10.74), Jazz (8.99) and Pop (7.99).",
        ),
        (["genre"], [], "No rows match."),
    ],
)
def test_simple_shapes_read_as_one_sentence(columns, rows, sentence) -> None:
    assert answer_sentence(columns, rows) == sentence


@pytest.mark.parametrize(
    ("columns", "rows"),
    [
        (["a", "b", "c"], [[1, 2, 3]]),  # three columns
        (["first", "last"], [["Ada", "Lovelace"]]),  # two labels, no value
        (["n"], [[number] for number in range(6)]),  # a list too long to say
        ([], []),
    ],
)
def test_other_shapes_have_no_sentence(columns, rows) -> None:
    assert answer_sentence(columns, rows) is None


def test_values_cannot_break_the_line_and_long_ones_are_cut() -> None:
    sentence = answer_sentence(["note"], [["two\nlines\x1b[2J" + "x" * 500]])
    assert "\n" not in sentence and "\x1b" not in sentence
    assert sentence.startswith("The answer is two\\nlines\\x1b[2J") and sentence.endswith("x….")
    assert len(sentence) < 250
