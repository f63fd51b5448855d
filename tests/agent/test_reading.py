"""Readings through the whole graph: the model reads a table small enough
to show whole (the bundled cities CSV), greedily and then sampled; a
reading votes for the programs whose result it matches, readings that match
no program form groups of their own and never end the vote alone, and a
reading that wins is a soft answer. The LLM is the fake OpenAI-compatible
server on 127.0.0.1; programs run in the real sandbox; expected answers
come from pandas reading the same file."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

from agent import AgentContext, ask
from tests.agent.conftest import fenced
from tests.fake_openai import Step

QUESTION = "How many cities are there?"
COUNT_SQL = "SELECT COUNT(*) FROM cities"
WRONG_SQL = "SELECT COUNT(*) FROM cities WHERE Country = 'Japan'"
BROKEN_SQL = "SELECT COUNT(* FROM cities"


def reading(*values: object) -> Step:
    """The model's direct answer, as the reading prompt asks for it."""
    return Step(json.dumps({"reasoning": "counted the rows", "answer": list(values)}))


@pytest.fixture
def cities(examples) -> list[str]:
    return [str(examples / "cities.csv")]


@pytest.fixture
def table(examples) -> pd.DataFrame:
    return pd.read_csv(examples / "cities.csv")


@pytest.fixture
def reads(context: AgentContext) -> AgentContext:
    """SQL candidates with example rows, one attempt each, and one reading."""
    return dataclasses.replace(
        context,
        candidates=4,
        routes=("sql",),
        reply_format="fenced",
        example_values=3,
        max_attempts=1,
        demonstrations=0,
        readings=1,
    )


def test_a_reading_that_matches_the_first_program_ends_the_vote(llm, reads, cities, table):
    with llm(reading(len(table)), Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(QUESTION, cities, context=reads)
    assert answer.answer == [[len(table)]] and not answer.soft
    assert [c.origin for c in answer.candidates] == ["reading", "greedy"]
    assert (answer.llm_calls, answer.votes, answer.agreement) == (2, 2, 1.0)
    assert answer.code == COUNT_SQL  # a program answers, not the reading
    reading_prompt = server.prompts()[0]
    assert "## Data\n" in reading_prompt
    assert all(city in reading_prompt for city in table["City"])  # every row
    assert [event.event for event in answer.trace if event.node == "read_data"] == ["reading"]


def test_a_reading_sides_with_the_program_it_matches(llm, reads, cities, table):
    script = [reading(len(table)), Step(fenced(WRONG_SQL, "sql")), Step(fenced(COUNT_SQL, "sql"))]
    with llm(*script) as server:
        answer = ask(QUESTION, cities, context=reads)
    assert answer.answer == [[len(table)]]
    assert [c.origin for c in answer.candidates] == ["reading", "greedy", "sample"]
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 3)
    assert len(server.requests) == 3


def test_when_no_two_candidates_agree_the_first_reading_answers_soft(llm, reads, cities):
    two = dataclasses.replace(reads, candidates=2)
    other = "SELECT COUNT(DISTINCT Country) FROM cities"
    script = [reading(99), Step(fenced(WRONG_SQL, "sql")), Step(fenced(other, "sql"))]
    with llm(*script):
        answer = ask(QUESTION, cities, context=two)
    assert answer.answer == [[99]] and answer.soft and answer.code == ""
    assert answer.votes == 1 and answer.agreement == pytest.approx(1 / 3)


def test_readings_that_agree_still_hear_a_program_and_one_that_agrees_answers(
    llm, reads, cities, table
):
    three = dataclasses.replace(reads, readings=3)
    script = [reading(len(table)), reading(len(table) + 1), reading(len(table))]
    with llm(*script, Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["reading"] * 3 + ["greedy"]
    assert (answer.llm_calls, answer.votes) == (4, 3)
    readings = server.requests[:3]
    assert [body.get("temperature", 0) for body in readings] == [0, 0.7, 0.7]
    assert len({json.dumps(body["messages"]) for body in readings}) == 1  # one prompt


def test_reading_stops_as_soon_as_two_readings_agree(llm, reads, cities, table):
    three = dataclasses.replace(reads, readings=3)
    script = [reading(len(table)), reading(len(table)), Step(fenced(COUNT_SQL, "sql"))]
    with llm(*script) as server:
        answer = ask(QUESTION, cities, context=three)
    assert [c.origin for c in answer.candidates] == ["reading", "reading", "greedy"]
    assert len(server.requests) == 3 and answer.votes == 3


def test_three_programs_outvote_two_readings_that_agree_on_a_wrong_answer(
    llm, reads, cities, table
):
    three = dataclasses.replace(reads, readings=3)
    wrong = len(table) - 1
    programs = [Step(fenced(COUNT_SQL + " " * n, "sql")) for n in range(3)]
    with llm(reading(wrong), reading(wrong), *programs):
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["reading"] * 2 + ["greedy"] + ["sample"] * 2
    assert answer.votes == 3


def test_readings_that_agree_answer_when_the_programs_do_not(llm, reads, cities, table):
    two = dataclasses.replace(reads, readings=3, candidates=2)
    other = "SELECT COUNT(DISTINCT Country) FROM cities"
    script = [reading(len(table)), reading(len(table))]
    with llm(*script, Step(fenced(WRONG_SQL, "sql")), Step(fenced(other, "sql"))):
        answer = ask(QUESTION, cities, context=two)
    assert answer.answer == [[len(table)]] and answer.soft and answer.code == ""
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 4)


def test_readings_that_all_differ_leave_the_answer_to_programs(llm, reads, cities, table):
    three = dataclasses.replace(reads, readings=3)
    script = [reading(1), reading(2), reading(3), Step(fenced(COUNT_SQL, "sql"))]
    with llm(*script, Step(fenced(COUNT_SQL, "sql"))):
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["reading"] * 3 + ["greedy", "sample"]
    assert answer.votes == 2


def test_a_reading_matches_a_column_of_a_wider_result(llm, reads, cities, table):
    by_country = "SELECT Country, COUNT(*) FROM cities GROUP BY Country"
    countries = sorted(set(table["Country"]), reverse=True)
    with llm(reading(*countries), Step(fenced(by_country, "sql"))) as server:
        answer = ask("Which countries are there?", cities, context=reads)
    assert {row[0] for row in answer.answer} == set(countries)
    assert answer.votes == 2 and len(server.requests) == 2


def test_when_no_program_runs_the_reading_is_a_soft_answer(llm, reads, cities, table):
    two = dataclasses.replace(reads, candidates=2, repair=False)
    broken = [Step(fenced(BROKEN_SQL, "sql")), Step(fenced(BROKEN_SQL + " ", "sql"))]
    with llm(reading(len(table)), *broken):
        answer = ask(QUESTION, cities, context=two)
    assert answer.soft and answer.error is None
    assert answer.answer == [[len(table)]] and answer.code == ""


def test_a_question_the_data_cannot_answer_is_not_answered_by_the_reading(llm, reads, cities):
    two = dataclasses.replace(reads, candidates=2)
    missing = "SELECT AVG(tempo_bpm) FROM cities"
    script = [reading(120), Step(fenced(missing, "sql")), Step(fenced(missing + " ", "sql"))]
    with llm(*script):
        answer = ask("What is the average tempo?", cities, context=two)
    assert not answer.soft and answer.answer == []
    assert answer.error is not None and answer.error.type == "NotInData"


def test_a_table_too_big_to_show_whole_is_not_read(llm, reads, tmp_path):
    table = tmp_path / "readings.csv"
    pd.DataFrame({"sensor": range(3000), "value": range(3000)}).to_csv(table, index=False)
    one = dataclasses.replace(reads, candidates=1)
    with llm(Step(fenced("SELECT COUNT(*) FROM readings", "sql"))) as server:
        answer = ask("How many readings?", [str(table)], context=one)
    assert len(server.requests) == 1 and "## Data\n" not in server.prompts()[0]
    assert answer.answer == [[3000]]


def test_a_database_is_not_read(llm, reads, examples):
    one = dataclasses.replace(reads, candidates=1)
    with llm(Step(fenced("SELECT COUNT(*) FROM album", "sql"))) as server:
        answer = ask("How many albums?", [str(examples / "music.sqlite")], context=one)
    assert len(server.requests) == 1 and "## Data\n" not in server.prompts()[0]
    assert [c.origin for c in answer.candidates] == ["greedy"]


@pytest.mark.parametrize("switch", ["context", "no example values"])
def test_the_reading_is_off_when_switched_off_or_values_are_kept_out(
    llm, reads, cities, monkeypatch, switch
):
    run = dataclasses.replace(reads, readings=0, candidates=1)
    if switch == "no example values":
        run = dataclasses.replace(reads, example_values=None, candidates=1)
        monkeypatch.setenv("PANDORA_EXAMPLE_VALUES", "0")
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(QUESTION, cities, context=run)
    assert len(server.requests) == 1 and "## Data\n" not in server.prompts()[0]
    assert [c.origin for c in answer.candidates] == ["greedy"]


def test_an_unreadable_reading_leaves_the_programs_to_answer(llm, reads, cities, table):
    one = dataclasses.replace(reads, candidates=1)
    with llm(Step(""), Step(fenced(COUNT_SQL, "sql"))):
        answer = ask(QUESTION, cities, context=one)
    assert answer.answer == [[len(table)]]
    assert [c.origin for c in answer.candidates] == ["greedy"]
    assert answer.llm_calls == 2
