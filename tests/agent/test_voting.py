"""The vote with readings among the candidates (`agent.voting`): a reading
adds its vote to every program result holding its values in one column,
readings that match no program form groups of their own, and ties go to
the group whose earliest voter comes first, readings before programs. A greedy program is sure when
its first attempt ran to a clean result."""

from __future__ import annotations

import pytest

from agent.answer import AnswerError, Candidate
from agent.voting import supports, sure, tally

QUESTION = "Which team had the most appearances?"


def program(*rows: list[object], origin: str = "greedy") -> Candidate:
    return Candidate(representation="sql", origin=origin, result=[list(row) for row in rows])


def reading(*values: object) -> Candidate:
    return Candidate(
        representation="sql",
        origin="reading",
        result=[[value] for value in values],
        columns=["answer"],
    )


@pytest.mark.parametrize(
    ("values", "rows", "supported"),
    [
        (["Spartak"], [["Spartak"]], True),
        (["3"], [[3]], True),  # cells by value: the reading's text, the program's number
        ([2009], [[2009], [2009]], True),  # one value repeated on several rows
        (["Rock", "Jazz"], [["Jazz", 2], ["Rock", 5]], True),  # one column of a wider result
        (["Rock"], [["Jazz", 2], ["Rock", 5]], False),  # part of a column is not the answer
        (["Rock", "Pop"], [["Rock"]], False),
        (["x"], [], False),
    ],
)
def test_a_reading_supports_a_result_holding_its_values_in_one_column(values, rows, supported):
    assert supports(reading(*values), program(*rows)) is supported


def test_a_reading_adds_its_vote_to_the_program_it_matches():
    candidates = [reading("CSKA"), program(["Spartak"]), program(["CSKA"], origin="sample")]
    outcome = tally(candidates, QUESTION)
    assert outcome.winner is candidates[2]
    assert (outcome.votes, outcome.weight, outcome.runner_up_weight, outcome.ran) == (
        2,
        2.0,
        1.0,
        3,
    )


def test_a_reading_that_matches_no_program_forms_a_group_of_its_own():
    candidates = [reading("Dinamo"), program(["Spartak"]), reading("Dinamo")]
    outcome = tally(candidates, QUESTION)
    assert outcome.winner is candidates[0]
    assert (outcome.votes, outcome.weight, outcome.runner_up_weight, outcome.ran) == (
        2,
        2.0,
        1.0,
        3,
    )


def test_at_equal_weight_readings_beat_the_programs_written_after_them():
    candidates = [reading("Dinamo"), program(["Spartak"]), program(["CSKA"], origin="sample")]
    assert tally(candidates, QUESTION).winner is candidates[0]
    agreeing = [reading("Tokyo"), reading("Tokyo"), program(["Shanghai"]), program(["Shanghai"])]
    outcome = tally(agreeing, QUESTION)
    assert outcome.winner is agreeing[0] and outcome.weight == outcome.runner_up_weight == 2.0
    agreeing.append(program(["Shanghai"], origin="sample"))
    assert tally(agreeing, QUESTION).winner is agreeing[2]


def test_at_equal_weight_readings_beat_programs_written_before_them():
    candidates = [program(["Spartak"]), reading("Dinamo"), program(["CSKA"], origin="sample")]
    assert tally(candidates, QUESTION).winner is candidates[1]
    supported = [program(["Spartak"]), program(["Spartak"]), program(["CSKA"]), reading("CSKA")]
    assert tally(supported, QUESTION).winner is supported[2]


def test_readings_of_the_same_values_form_one_group():
    candidates = [reading("Rock", "Jazz"), reading("Jazz", "Rock"), program(["Pop"])]
    outcome = tally(candidates, QUESTION)
    assert outcome.winner is candidates[0]
    assert (outcome.votes, outcome.weight, outcome.runner_up_weight) == (2, 2.0, 1.0)


def test_a_reading_alone_answers_and_a_reading_of_nothing_does_not_vote():
    alone = reading("Spartak")
    assert tally([alone], QUESTION).winner is alone
    outcome = tally([reading(), program(["CSKA"])], QUESTION)
    assert outcome.winner is not None and outcome.winner.origin == "greedy"
    assert outcome.ran == 1


def test_a_tie_goes_to_the_group_the_first_reading_supports():
    candidates = [reading("CSKA"), program(["Spartak"]), program(["Spartak"]), program(["CSKA"])]
    outcome = tally(candidates, QUESTION)
    assert outcome.winner is candidates[3]
    assert outcome.weight == outcome.runner_up_weight == 2.0


@pytest.mark.parametrize(
    ("candidate", "question", "expected"),
    [
        (program(["Spartak"]), QUESTION, True),
        (program(["Spartak"], origin="sample"), QUESTION, False),
        (program(["Spartak"]).model_copy(update={"attempts": 2}), QUESTION, False),
        (program(["Spartak"]).model_copy(update={"flagged": True}), QUESTION, False),
        (program(), QUESTION, False),  # no rows
        (
            Candidate(representation="sql", error=AnswerError(type="QueryFailed", message="x")),
            QUESTION,
            False,
        ),
        (program(["Spartak"], ["CSKA"]), "What are the top 2 teams by appearances?", True),
        (program(["Spartak"]), "What are the top 2 teams by appearances?", False),  # 1 row of 2
        (reading("Spartak"), QUESTION, False),
    ],
)
def test_a_greedy_program_is_sure_only_when_its_first_attempt_ran_clean(
    candidate, question, expected
):
    assert sure(candidate, question) is expected
