"""The reading witness through the whole graph: the model reads data small
enough to show whole (the bundled music database), its reading votes for
the programs whose result it matches and never answers alone, and it is a
soft answer when no program ran. The LLM is the fake OpenAI-compatible
server on 127.0.0.1; programs run in the real sandbox; answers are checked
with sqlite3."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from agent import AgentContext, ask
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

QUESTION = "How many albums are there?"
COUNT_SQL = "SELECT COUNT(*) FROM album"
WRONG_SQL = "SELECT COUNT(*) FROM album WHERE genre = 'Rock'"
BROKEN_SQL = "SELECT COUNT(* FROM album"


def reading(*values: object) -> Step:
    """The model's direct answer, as the reading prompt asks for it."""
    return Step(json.dumps({"reasoning": "counted the rows", "answer": list(values)}))


def albums() -> int:
    return music_query(COUNT_SQL)[0][0]


@pytest.fixture
def reads(context: AgentContext) -> AgentContext:
    """SQL candidates with example rows, one attempt each, and the reading on."""
    return dataclasses.replace(
        context,
        candidates=4,
        routes=("sql",),
        reply_format="fenced",
        example_values=3,
        max_attempts=1,
        demonstrations=0,
        reading=True,
    )


def test_a_reading_that_matches_the_first_program_ends_the_vote(llm, reads, examples):
    with llm(reading(albums()), Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=reads)
    assert answer.answer == music_query(COUNT_SQL) and not answer.soft
    assert [c.origin for c in answer.candidates] == ["reading", "greedy"]
    assert (answer.llm_calls, answer.votes, answer.agreement) == (2, 2, 1.0)
    assert answer.code == COUNT_SQL  # a program answers, not the reading
    reading_prompt = server.prompts()[0]
    assert "## Data" in reading_prompt and "Chen Wei" in reading_prompt  # every table, whole
    assert "purchase_details" not in reading_prompt  # joined views repeat their tables
    assert [event.event for event in answer.trace if event.node == "read_data"] == ["reading"]


def test_a_reading_sides_with_the_program_it_matches(llm, reads, examples):
    script = [reading(albums()), Step(fenced(WRONG_SQL, "sql")), Step(fenced(COUNT_SQL, "sql"))]
    with llm(*script) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=reads)
    assert answer.answer == music_query(COUNT_SQL)
    assert [c.origin for c in answer.candidates] == ["reading", "greedy", "sample"]
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 3)
    assert len(server.requests) == 3


def test_a_reading_never_answers_on_its_own(llm, reads, examples):
    two = dataclasses.replace(reads, candidates=2)
    other = "SELECT COUNT(*) FROM artist"
    script = [reading(99), Step(fenced(WRONG_SQL, "sql")), Step(fenced(other, "sql"))]
    with llm(*script):
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=two)
    assert answer.answer == music_query(WRONG_SQL)  # the tie goes to the first program
    assert answer.votes == 1 and not answer.soft


def test_a_reading_matches_a_column_of_a_wider_result(llm, reads, examples):
    by_genre = "SELECT genre, COUNT(*) FROM album GROUP BY genre"
    genres = [row[0] for row in music_query(by_genre)]
    with llm(reading(*reversed(genres)), Step(fenced(by_genre, "sql"))) as server:
        answer = ask("Which genres are there?", [str(examples / "music.sqlite")], context=reads)
    assert answer.answer == music_query(by_genre)
    assert answer.votes == 2 and len(server.requests) == 2


def test_when_no_program_runs_the_reading_is_a_soft_answer(llm, reads, examples):
    two = dataclasses.replace(reads, candidates=2, repair=False)
    script = [
        reading(albums()),
        Step(fenced(BROKEN_SQL, "sql")),
        Step(fenced(BROKEN_SQL + " ", "sql")),
    ]
    with llm(*script):
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=two)
    assert answer.soft and answer.error is None
    assert answer.answer == [[albums()]] and answer.code == ""


def test_a_question_the_data_cannot_answer_is_not_answered_by_the_reading(llm, reads, examples):
    two = dataclasses.replace(reads, candidates=2)
    missing = "SELECT AVG(tempo_bpm) FROM track"
    script = [reading(120), Step(fenced(missing, "sql")), Step(fenced(missing + " ", "sql"))]
    with llm(*script):
        answer = ask("What is the average tempo?", [str(examples / "music.sqlite")], context=two)
    assert not answer.soft and answer.answer == []
    assert answer.error is not None and answer.error.type == "NotInData"


def test_data_too_big_to_show_whole_is_not_read(llm, reads, tmp_path):
    table = tmp_path / "readings.csv"
    pd.DataFrame({"sensor": range(3000), "value": range(3000)}).to_csv(table, index=False)
    with llm(Step(fenced("SELECT COUNT(*) FROM readings", "sql"))) as server:
        answer = ask(
            "How many readings?", [str(table)], context=dataclasses.replace(reads, candidates=1)
        )
    assert len(server.requests) == 1 and "## Data\n" not in server.prompts()[0]
    assert answer.answer == [[3000]]


@pytest.mark.parametrize("switch", ["context", "no example values"])
def test_the_reading_is_off_when_switched_off_or_values_are_kept_out(
    llm, reads, examples, monkeypatch, switch
):
    run = dataclasses.replace(reads, reading=False)
    if switch == "no example values":
        run = dataclasses.replace(reads, example_values=None)
        monkeypatch.setenv("PANDORA_EXAMPLE_VALUES", "0")
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(
            QUESTION,
            [str(examples / "music.sqlite")],
            context=dataclasses.replace(run, candidates=1),
        )
    assert len(server.requests) == 1 and "## Data\n" not in server.prompts()[0]
    assert [c.origin for c in answer.candidates] == ["greedy"]


def test_an_unreadable_reading_leaves_the_programs_to_answer(llm, reads, examples):
    one = dataclasses.replace(reads, candidates=1)
    with llm(Step(""), Step(fenced(COUNT_SQL, "sql"))):
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=one)
    assert answer.answer == music_query(COUNT_SQL)
    assert [c.origin for c in answer.candidates] == ["greedy"]
    assert answer.llm_calls == 2
