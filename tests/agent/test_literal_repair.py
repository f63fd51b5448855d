"""A text literal that matches nothing, through the whole graph: a fake
OpenAI-compatible server plays the LLM, the real sandbox runs the programs
over a real SQLite file of penguins (answers checked with sqlite3). A
literal in the wrong case is repaired with no second LLM call; one that
matches no value sends the real values to the LLM's next attempt; a result
whose row count contradicts "the 2 heaviest" loses the vote."""

from __future__ import annotations

import dataclasses
import sqlite3
from pathlib import Path

from agent import ask
from tests.agent.conftest import fenced
from tests.fake_openai import Step

QUESTION = "How many female Gentoo penguins are there?"


def sqlite_rows(path: Path, sql: str) -> list[list[object]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
        return [list(row) for row in connection.execute(sql).fetchall()]


def test_a_sql_literal_in_the_wrong_case_is_repaired_with_no_second_call(
    llm, one_candidate, penguins_file
):
    wrong_case = "SELECT COUNT(*) FROM penguins WHERE sex = 'Female' AND species = 'Gentoo'"
    with llm(Step(fenced(wrong_case, "sql"))) as server:
        answer = ask(QUESTION, [str(penguins_file)], context=one_candidate)
    assert len(server.requests) == 1 and answer.llm_calls == 1
    assert answer.answer == sqlite_rows(
        penguins_file, "SELECT COUNT(*) FROM penguins WHERE sex = 'female' AND species = 'Gentoo'"
    )
    assert answer.answer != [[0]]
    repairs = [event.detail["changes"] for event in answer.trace if event.node == "repair"]
    assert repairs == [["value 'Female' -> 'female' in penguins['sex']"]]


def test_a_pandas_literal_in_the_wrong_case_is_repaired_with_no_second_call(
    llm, one_candidate, penguins_file
):
    pandas = dataclasses.replace(one_candidate, routes=("pandas",))
    code = "result = len(penguins[(penguins['sex'] == 'Female') & (penguins.species == 'Gentoo')])"
    with llm(Step(fenced(code))) as server:
        answer = ask(QUESTION, [str(penguins_file)], context=pandas)
    assert len(server.requests) == 1
    assert answer.answer == sqlite_rows(
        penguins_file, "SELECT COUNT(*) FROM penguins WHERE sex = 'female' AND species = 'Gentoo'"
    )


def test_a_literal_no_value_matches_sends_the_real_values_to_the_next_attempt(
    llm, one_candidate, penguins_file
):
    retrying = dataclasses.replace(one_candidate, max_attempts=2)
    imagined = "SELECT COUNT(*) FROM penguins WHERE island = 'Atlantis'"
    right = "SELECT COUNT(*) FROM penguins WHERE island = 'Dream'"
    with llm(Step(fenced(imagined, "sql")), Step(fenced(right, "sql"))) as server:
        answer = ask(
            "How many penguins live on Atlantis island?", [str(penguins_file)], context=retrying
        )
    assert len(server.requests) == 2
    retry_prompt = server.prompts()[1]
    assert "No row has penguins['island'] == 'Atlantis': the filter matches nothing" in retry_prompt
    assert all(f"'{island}'" in retry_prompt for island in ("Biscoe", "Dream", "Torgersen"))
    assert answer.answer == sqlite_rows(penguins_file, right)


def test_the_vote_prefers_the_two_rows_the_question_asks_for(llm, one_candidate, penguins_file):
    two = dataclasses.replace(one_candidate, candidates=2)
    heaviest = "SELECT id FROM penguins ORDER BY body_mass_g DESC LIMIT {}"
    script = [Step(fenced(heaviest.format(1), "sql")), Step(fenced(heaviest.format(2), "sql"))]
    with llm(*script):
        answer = ask("Which are the 2 heaviest penguins?", [str(penguins_file)], context=two)
    assert answer.answer == sqlite_rows(penguins_file, heaviest.format(2))
    assert len(answer.answer) == 2 and answer.votes == 1
