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


QUESTION = "Does the band have a jazz album?"


@pytest.mark.parametrize(
    ("columns", "rows", "expected"),
    [
        (["COUNT(*) > 0"], [[1]], [["Yes"]]),
        (["EXISTS (SELECT 1 FROM album WHERE genre = 'Jazz')"], [[0]], [["No"]]),
        (["has_jazz"], [[True]], [["Yes"]]),
        (["answer"], [[False]], [["No"]]),
    ],
)
def test_a_truth_value_becomes_yes_or_no(columns, rows, expected):
    assert as_yes_or_no(QUESTION, columns, rows) == expected


@pytest.mark.parametrize(
    ("columns", "rows"),
    [
        (["COUNT(*) > 0"], [[2]]),
        (["name"], [[3]]),
        (["a > 1", "b > 1"], [[1, 0]]),
        (["COUNT(*) > 0"], [[1], [0]]),
        (["COUNT(*) > 0"], [["1"]]),
        (["COUNT(*) > 0"], [[1.5]]),
        (["COUNT(*) > 0"], []),
        (["COUNT(*) > 0"], [[None]]),
    ],
)
def test_counts_and_anything_but_one_truth_value_are_left_alone(columns, rows):
    assert as_yes_or_no(QUESTION, columns, rows) is None


def test_a_truth_value_answering_another_kind_of_question_is_left_alone():
    assert as_yes_or_no("How many jazz albums are there?", ["COUNT(*) > 0"], [[1]]) is None


@pytest.mark.parametrize(
    ("columns", "rows", "expected"),
    [
        (["COUNT(*)"], [[1]], [["Yes"]]),
        (["COUNT(DISTINCT T2.medal_id)"], [[2]], [["Yes"]]),
        (["n"], [[0]], [["No"]]),
        (["jazz_count"], [[0]], [["No"]]),
    ],
)
def test_a_count_answers_whether_something_exists(columns, rows, expected):
    assert as_yes_or_no(QUESTION, columns, rows) == expected


@pytest.mark.parametrize(
    "question",
    [
        "Has Omar Assar ever won a Bronze Medals in the Africa TOP 16 Cup?",
        "Did Géza Imre win international medals in 1996?",
        "Is there an album by Miles Davis?",
    ],
)
def test_questions_asking_whether_something_exists(question):
    assert as_yes_or_no(question, ["COUNT(*)"], [[2]]) == [["Yes"]]
    assert as_yes_or_no(question, ["COUNT(*)"], [[0]]) == [["No"]]


@pytest.mark.parametrize(
    "question",
    [
        "Does Peter Joppich have more medals in their twenties as compared to their thirties?",
        "Does Christian Coleman have more Gold Medals than Bronze Medals?",
        "Does she have 3 gold medals?",
        "Did he win the title twice?",
        "Has the band released as many albums as singles?",
        "How many albums are there?",
    ],
)
def test_a_count_is_no_answer_to_a_comparison_or_a_number(question):
    assert as_yes_or_no(question, ["COUNT(*)"], [[2]]) is None
