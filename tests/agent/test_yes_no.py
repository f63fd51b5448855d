"""Yes/no questions answered with a truth value read as Yes or No."""

from __future__ import annotations

import pytest

from agent.yes_no import as_yes_or_no, is_yes_no_question


@pytest.mark.parametrize(
    "question",
    [
        "Does Asafa Powell have more medals in his twenties than in his thirties?",
        "is there an album over 10 dollars?",
        "Has any artist formed before 1990 released a jazz album?",
    ],
)
def test_questions_opening_like_yes_no_questions_ask_for_yes_or_no(question):
    assert is_yes_no_question(question)


@pytest.mark.parametrize(
    "question",
    [
        "How many albums are there?",
        "Which artist is the oldest?",
        "Did more people attend in 2010 or in 2011?",
        "Disney or Pixar: which made more films?",
    ],
)
def test_other_questions_and_choices_between_alternatives_do_not(question):
    assert not is_yes_no_question(question)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [([[1]], [["Yes"]]), ([[0]], [["No"]]), ([[True]], [["Yes"]]), ([[False]], [["No"]])],
)
def test_a_truth_value_becomes_yes_or_no(rows, expected):
    assert as_yes_or_no("Does the band have a jazz album?", rows) == expected


@pytest.mark.parametrize("rows", [[[2]], [[1, 0]], [[1], [0]], [["1"]], [[1.5]], [], [[None]]])
def test_anything_but_one_truth_value_is_left_alone(rows):
    assert as_yes_or_no("Does the band have a jazz album?", rows) is None


def test_a_truth_value_answering_another_kind_of_question_is_left_alone():
    assert as_yes_or_no("How many jazz albums are there?", [[1]]) is None
