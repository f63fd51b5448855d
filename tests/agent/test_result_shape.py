"""Reading an explicit count (and a request for names or a number) from a question, and
the vote weighing a result whose shape contradicts it like a flagged one."""

from __future__ import annotations

import pytest

from agent.answer import Candidate
from agent.result_shape import asked_count, contradicts
from agent.voting import FLAGGED_WEIGHT, tally, weight


@pytest.mark.parametrize(
    ("question", "count"),
    [
        ("Which are the 2 heaviest penguins?", 2),
        ("List the top 5 albums by price.", 5),
        ("Show the first three tracks of the album.", 3),
        ("What are the last 4 purchases?", 4),
        ("Name the three most common species.", 3),
        ("Which are the bottom ten countries by population?", 10),
        ("Give the TOP 3 customers.", 3),
        ("the ten largest cities and the 10 oldest ones", 10),
    ],
)
def test_an_explicit_count_is_read(question, count):
    assert asked_count(question) == count


@pytest.mark.parametrize(
    "question",
    [
        "How many albums are there?",
        "What is the total revenue of the top 3 customers?",
        "Which of the top 5 albums is the cheapest?",
        "What is the cheapest album among the 3 most expensive ones?",
        "Which artists released albums in the last 2 years?",
        "Who are the top 10% of earners?",
        "List the top 5 songs per genre.",
        "What are the top 3 albums of each artist?",
        "What were the 2020 albums?",
        "List the top 1000 songs.",
        "What are the 3 interest rates?",
        "Which are the heaviest penguins?",
        "the ten largest cities and the 3 oldest ones",
        "Who came 2nd in the race?",
    ],
)
def test_no_count_is_read_when_unsure(question):
    assert asked_count(question) is None


@pytest.mark.parametrize(
    ("question", "columns", "rows", "contradiction"),
    [
        ("Which are the 2 heaviest penguins?", ["id"], [[2]], True),
        ("Which are the 2 heaviest penguins?", ["id"], [[2], [1]], False),
        ("List the top 5 albums.", ["title"], [["a"], ["b"], ["c"]], True),
        ("What are the names of the singers?", ["singer_id"], [[1], [2]], True),
        ("What are the names of the singers?", ["SingerId"], [[1]], True),
        ("What are the names of the singers?", ["name"], [["Ann"]], False),
        ("What are the names of the singers?", ["singer_id"], [["Ann"]], False),
        ("What are the names of the singers?", ["paid"], [[1]], False),
        ("What are the names and ids of the singers?", ["singer_id"], [[1]], False),
        ("Which singers are there?", ["singer_id"], [[1]], False),
        ("How many ships were wrecked?", ["answer"], [["Leafield"]], True),
        ("how much did the album cost?", ["title"], [["Blue"], ["Red"]], True),
        ("How many ships were wrecked?", ["answer"], [["2"]], False),
        ("How many ships were wrecked?", ["count"], [[2]], False),
        ("How many ships were wrecked?", ["answer"], [["two ships"]], False),
        ("How many ships were wrecked?", ["answer"], [["none"]], False),
        ("How much did it cost?", ["answer"], [["$1.5 million"]], False),
        ("How many albums does each artist have?", ["artist"], [["Ann"]], False),
        ("How many ships were wrecked?", ["flag"], [[True]], True),
        ("Which ship was wrecked?", ["answer"], [["Leafield"]], False),
    ],
)
def test_a_result_shape_contradicting_the_question(question, columns, rows, contradiction):
    assert contradicts(question, columns, rows) is contradiction


def test_the_vote_prefers_the_two_rows_over_the_one_for_the_2_heaviest():
    one = Candidate(representation="sql", code="... LIMIT 1", columns=["id"], result=[[2]])
    two = Candidate(
        representation="sql", code="... LIMIT 2", columns=["id"], result=[[2], [1]], origin="sample"
    )
    question = "Which are the 2 heaviest penguins?"
    assert weight(one, question) == FLAGGED_WEIGHT and weight(two, question) == 1.0
    outcome = tally([one, two], question)
    assert outcome.winner == two
    assert (outcome.weight, outcome.runner_up_weight) == (1.0, FLAGGED_WEIGHT)
    # with no count in the question the tie goes to the candidate written first
    assert tally([one, two], "Which are the heaviest penguins?").winner == one


def test_a_reading_with_no_number_for_how_many_weighs_half_and_loses_to_two_programs():
    def reading(value: str) -> Candidate:
        return Candidate(
            representation="sql", origin="reading", columns=["answer"], result=[[value]]
        )

    def program(value: int) -> Candidate:
        return Candidate(representation="sql", origin="sample", columns=["n"], result=[[value]])

    question = "How many ships were wrecked in lake superior?"
    candidates = [reading("Leafield"), reading("Leafield"), program(2), program(2)]
    outcome = tally(candidates, question)
    assert outcome.winner is candidates[2]
    assert (outcome.weight, outcome.runner_up_weight) == (2.0, 2 * FLAGGED_WEIGHT)
