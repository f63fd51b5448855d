"""Readings through the whole graph: once the first program is not sure,
the model reads a table small enough to show whole (the bundled cities
CSV), greedily and then sampled; a reading votes for the programs whose
result it matches, readings that match no program form groups of their own,
win ties with programs and never end the vote alone, and a reading that
wins is a soft answer. The LLM is the fake OpenAI-compatible
server on 127.0.0.1; programs run in the real sandbox; expected answers
come from pandas reading the same file."""

from __future__ import annotations

import dataclasses
import json
import random

import pandas as pd
import pytest

from agent import AgentContext, ask
from tests.agent.conftest import fenced
from tests.fake_openai import Step, fake_openai_server

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
    """SQL candidates with example rows, one attempt each, and one reading,
    asked after the first program whether it is sure or not."""
    return dataclasses.replace(
        context,
        candidates=4,
        routes=("sql",),
        reply_format="fenced",
        example_values=3,
        max_attempts=1,
        demonstrations=0,
        readings=1,
        stop_when_sure=False,
    )


def program(sql: str) -> Step:
    """The model's reply with one SQL program."""
    return Step(fenced(sql, "sql"))


def test_a_sure_first_program_answers_before_the_data_is_read(llm, reads, cities, table):
    sure = dataclasses.replace(reads, stop_when_sure=True)
    with llm(program(COUNT_SQL)) as server:
        answer = ask(QUESTION, cities, context=sure)
    assert answer.answer == [[len(table)]] and len(server.requests) == 1
    assert [c.origin for c in answer.candidates] == ["greedy"]
    assert not [event for event in answer.trace if event.node == "read_data"]


def test_a_first_program_that_is_not_sure_has_the_data_read(llm, reads, cities, table):
    sure = dataclasses.replace(reads, stop_when_sure=True)
    nowhere = "SELECT City FROM cities WHERE Country = 'Atlantis'"  # no rows: doubtful
    with llm(program(nowhere), reading(len(table)), program(COUNT_SQL)) as server:
        answer = ask(QUESTION, cities, context=sure)
    assert answer.answer == [[len(table)]] and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["greedy", "reading", "sample"]
    assert "## Data\n" in server.prompts()[1]


def test_a_reading_that_matches_the_first_program_ends_the_vote(llm, reads, cities, table):
    with llm(program(COUNT_SQL), reading(len(table))) as server:
        answer = ask(QUESTION, cities, context=reads)
    assert answer.answer == [[len(table)]] and not answer.soft
    assert [c.origin for c in answer.candidates] == ["greedy", "reading"]
    assert (answer.llm_calls, answer.votes, answer.agreement) == (2, 2, 1.0)
    assert answer.code == COUNT_SQL  # a program answers, not the reading
    reading_prompt = server.prompts()[1]
    assert "## Data\n" in reading_prompt and "## Data\n" not in server.prompts()[0]
    assert all(city in reading_prompt for city in table["City"])  # every row
    assert [event.event for event in answer.trace if event.node == "read_data"] == ["reading"]


def test_a_reading_sides_with_the_program_it_matches(llm, reads, cities, table):
    script = [program(WRONG_SQL), reading(len(table)), program(COUNT_SQL)]
    with llm(*script) as server:
        answer = ask(QUESTION, cities, context=reads)
    assert answer.answer == [[len(table)]]
    assert [c.origin for c in answer.candidates] == ["greedy", "reading", "sample"]
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 3)
    assert len(server.requests) == 3


def test_when_no_two_candidates_agree_the_reading_wins_the_tie_soft(llm, reads, cities):
    two = dataclasses.replace(reads, candidates=2)
    other = "SELECT COUNT(DISTINCT Country) FROM cities"
    script = [program(WRONG_SQL), reading(99), program(other)]
    with llm(*script):
        answer = ask(QUESTION, cities, context=two)
    assert answer.answer == [[99]] and answer.soft and answer.code == ""
    assert answer.votes == 1 and answer.agreement == pytest.approx(1 / 3)


def test_readings_that_agree_still_hear_a_program_and_one_that_agrees_answers(
    llm, reads, cities, table
):
    three = dataclasses.replace(reads, readings=3)
    readings = [reading(len(table)), reading(len(table) + 1), reading(len(table))]
    with llm(program(WRONG_SQL), *readings, program(COUNT_SQL)) as server:
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["greedy", *["reading"] * 3, "sample"]
    assert (answer.llm_calls, answer.votes) == (5, 3)
    reading_requests = server.requests[1:4]
    assert [body.get("temperature", 0) for body in reading_requests] == [0, 0.7, 0.7]
    assert len({json.dumps(body["messages"]) for body in reading_requests}) == 1  # one prompt


def test_reading_stops_as_soon_as_a_reading_agrees_with_the_program(llm, reads, cities, table):
    three = dataclasses.replace(reads, readings=3)
    with llm(program(COUNT_SQL), reading(len(table))) as server:
        answer = ask(QUESTION, cities, context=three)
    assert [c.origin for c in answer.candidates] == ["greedy", "reading"]
    assert len(server.requests) == 2 and answer.votes == 2


def test_three_programs_outvote_two_readings_that_agree_on_a_wrong_answer(
    llm, reads, cities, table
):
    three = dataclasses.replace(reads, readings=3)
    wrong = len(table) - 1
    programs = [program(COUNT_SQL + " " * n) for n in range(3)]
    with llm(programs[0], reading(wrong), reading(wrong), *programs[1:]):
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    origins = [c.origin for c in answer.candidates]
    assert origins == ["greedy", "reading", "reading", "sample", "sample"]
    assert answer.votes == 3


def test_readings_that_agree_answer_when_the_programs_do_not(llm, reads, cities, table):
    two = dataclasses.replace(reads, readings=3, candidates=2)
    other = "SELECT COUNT(DISTINCT Country) FROM cities"
    script = [program(WRONG_SQL), reading(len(table)), reading(len(table)), program(other)]
    with llm(*script):
        answer = ask(QUESTION, cities, context=two)
    assert answer.answer == [[len(table)]] and answer.soft and answer.code == ""
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 4)


def test_readings_that_all_differ_leave_the_answer_to_programs(llm, reads, cities, table):
    three = dataclasses.replace(reads, readings=3)
    script = [program(COUNT_SQL), reading(1), reading(2), reading(3), program(COUNT_SQL)]
    with llm(*script):
        answer = ask(QUESTION, cities, context=three)
    assert answer.answer == [[len(table)]] and not answer.soft and answer.code == COUNT_SQL
    assert [c.origin for c in answer.candidates] == ["greedy", *["reading"] * 3, "sample"]
    assert answer.votes == 2


def test_a_reading_matches_a_column_of_a_wider_result(llm, reads, cities, table):
    by_country = "SELECT Country, COUNT(*) FROM cities GROUP BY Country"
    countries = sorted(set(table["Country"]), reverse=True)
    with llm(program(by_country), reading(*countries)) as server:
        answer = ask("Which countries are there?", cities, context=reads)
    assert {row[0] for row in answer.answer} == set(countries)
    assert answer.votes == 2 and len(server.requests) == 2


def test_when_no_program_runs_the_reading_is_a_soft_answer(llm, reads, cities, table):
    two = dataclasses.replace(reads, candidates=2, repair=False)
    with llm(program(BROKEN_SQL), reading(len(table)), program(BROKEN_SQL + " ")):
        answer = ask(QUESTION, cities, context=two)
    assert answer.soft and answer.error is None
    assert answer.answer == [[len(table)]] and answer.code == ""


def test_a_question_the_data_cannot_answer_is_not_answered_by_the_reading(llm, reads, cities):
    two = dataclasses.replace(reads, candidates=2)
    missing = "SELECT AVG(tempo_bpm) FROM cities"
    with llm(program(missing), reading(120), program(missing + " ")):
        answer = ask("What is the average tempo?", cities, context=two)
    assert not answer.soft and answer.answer == []
    assert answer.error is not None and answer.error.type == "NotInData"


def test_a_table_too_big_to_show_whole_is_not_read(llm, reads, tmp_path):
    table = tmp_path / "readings.csv"
    pd.DataFrame({"sensor": range(3000), "value": range(3000)}).to_csv(table, index=False)
    two = dataclasses.replace(reads, candidates=2)
    count = "SELECT COUNT(*) FROM readings"
    with llm(program(count), program(count + " ")) as server:
        answer = ask("How many readings?", [str(table)], context=two)
    assert len(server.requests) == 2
    assert not any("## Data\n" in prompt for prompt in server.prompts())
    assert answer.answer == [[3000]]


def test_a_database_is_not_read(llm, reads, examples):
    two = dataclasses.replace(reads, candidates=2)
    count = "SELECT COUNT(*) FROM album"
    with llm(program(count), program(count + " ")) as server:
        answer = ask("How many albums?", [str(examples / "music.sqlite")], context=two)
    assert len(server.requests) == 2
    assert not any("## Data\n" in prompt for prompt in server.prompts())
    assert [c.origin for c in answer.candidates] == ["greedy", "sample"]


@pytest.mark.parametrize("switch", ["context", "no example values"])
def test_the_reading_is_off_when_switched_off_or_values_are_kept_out(
    llm, reads, cities, monkeypatch, switch
):
    run = dataclasses.replace(reads, readings=0, candidates=2)
    if switch == "no example values":
        run = dataclasses.replace(reads, example_values=None, candidates=2)
        monkeypatch.setenv("PANDORA_EXAMPLE_VALUES", "0")
    with llm(program(COUNT_SQL), program(COUNT_SQL + " ")) as server:
        answer = ask(QUESTION, cities, context=run)
    assert len(server.requests) == 2
    assert not any("## Data\n" in prompt for prompt in server.prompts())
    assert [c.origin for c in answer.candidates] == ["greedy", "sample"]


def test_an_unreadable_reading_leaves_the_programs_to_answer(llm, reads, cities, table):
    two = dataclasses.replace(reads, candidates=2)
    with llm(program(COUNT_SQL), Step(""), program(COUNT_SQL + " ")):
        answer = ask(QUESTION, cities, context=two)
    assert answer.answer == [[len(table)]]
    assert [c.origin for c in answer.candidates] == ["greedy", "sample"]
    assert answer.llm_calls == 3


@pytest.mark.parametrize("seed", range(3))
def test_any_replies_end_within_the_readings_and_the_candidates_attempts(
    reads, cities, monkeypatch, seed
):
    """vote -> read_data -> vote is a cycle: whatever the model replies, the
    data is read once and no more than readings + candidates x attempts calls
    are made."""
    run = dataclasses.replace(reads, readings=3, candidates=3, max_attempts=2, stop_when_sure=True)
    chosen = random.Random(seed)
    programs = [COUNT_SQL, WRONG_SQL, BROKEN_SQL, "SELECT City FROM cities WHERE 0", None]

    def reply(messages: list[dict]) -> Step:
        if "## Data" in json.dumps(messages):
            return reading(chosen.choice([1, 2, 3]))
        query = chosen.choice(programs)
        return program(query) if query else Step("I cannot tell.")

    with fake_openai_server(reply) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test-key")
        monkeypatch.setenv("PANDORA_MODEL", "fake-model")
        answer = ask(QUESTION, cities, context=run)
    readings = [c for c in answer.candidates if c.origin == "reading"]
    assert answer.llm_calls == len(server.requests) <= 3 + 3 * 2
    assert len(readings) <= 3
