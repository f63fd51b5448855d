"""Candidates and execution voting through the whole graph, against a fake
OpenAI-compatible server on 127.0.0.1 playing the LLM and the real sandbox
running each candidate over the bundled music database (answers checked
with sqlite3): agreement stops early, disagreement asks for samples, ties go
to the first route, a failing or hanging candidate loses its vote, and the
vote is in the Answer and its trace. A sure greedy program answers alone;
one that was corrected or ran to nothing is not sure."""

from __future__ import annotations

import dataclasses
import os

import pytest

from agent import AgentContext, ask
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

COUNT_SQL = "SELECT COUNT(*) FROM album"
COUNT_PANDAS = "result = len(album)"
WRONG_SQL = "SELECT COUNT(*) FROM album WHERE genre = 'Rock'"
QUESTION = "How many albums are there?"


@pytest.fixture
def voting(context: AgentContext) -> AgentContext:
    """Four candidates over SQL then pandas, fenced replies, one attempt each,
    written until two agree (no early stop on a sure greedy program)."""
    return dataclasses.replace(
        context,
        candidates=4,
        stop_when_sure=False,
        routes=("sql", "pandas"),
        reply_format="fenced",
        example_values=0,
        max_attempts=1,
        demonstrations=0,
    )


def test_two_routes_that_agree_answer_after_two_calls(llm, voting, examples):
    with llm(Step(fenced(COUNT_SQL, "sql")), Step(fenced(COUNT_PANDAS))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=voting)
    assert answer.answer == music_query(COUNT_SQL)
    assert (answer.llm_calls, answer.votes, answer.agreement) == (2, 2, 1.0)
    assert [c.representation for c in answer.candidates] == ["sql", "pandas"]
    assert [c.origin for c in answer.candidates] == ["greedy", "greedy"]
    assert all(not body.get("temperature") for body in server.requests)
    sql_prompt, pandas_prompt = server.prompts()
    assert "CREATE TABLE" in sql_prompt and "```sql" in sql_prompt
    assert "pd.DataFrame" in pandas_prompt and "```python" in pandas_prompt
    votes = [event for event in answer.trace if event.node == "vote"]
    assert [event.detail["decision"] for event in votes] == ["another candidate", "answer"]


def test_disagreement_asks_for_a_sample_and_the_majority_answers(llm, voting, examples):
    script = [Step(fenced(WRONG_SQL, "sql")), Step(fenced(COUNT_PANDAS))]
    script.append(Step(fenced(COUNT_SQL, "sql")))
    with llm(*script) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=voting)
    assert answer.answer == music_query(COUNT_SQL)
    assert answer.votes == 2 and answer.agreement == pytest.approx(2 / 3)
    assert [c.origin for c in answer.candidates] == ["greedy", "greedy", "sample"]
    sample = server.requests[2]
    assert sample["temperature"] == voting.sample_temperature and sample["seed"] == 2
    # the sample is written on the first route's prompt again: the server's cache pays
    assert server.prompts()[2] == server.prompts()[0]


def test_a_tie_goes_to_the_first_route(llm, voting, examples):
    two = dataclasses.replace(voting, candidates=2)
    with llm(Step(fenced(WRONG_SQL, "sql")), Step(fenced(COUNT_PANDAS))):
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=two)
    assert answer.answer == music_query(WRONG_SQL)
    assert answer.representation == "sql"
    assert (answer.votes, answer.agreement) == (1, 0.5)


def test_a_failing_and_a_hanging_candidate_get_no_vote(llm, voting, examples):
    hanging = dataclasses.replace(voting, execution_timeout_seconds=2.0, candidates=3)
    failing = "SELECT COUNT(*) FROM nowhere_at_all"
    script = [Step(fenced(failing, "sql")), Step(fenced("while True:\n    pass"))]
    script.append(Step(fenced(COUNT_SQL, "sql")))
    with llm(*script):
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=hanging)
    assert answer.answer == music_query(COUNT_SQL) and answer.error is None
    first, second, third = answer.candidates
    assert first.error is not None and "nowhere_at_all" in first.error.message
    assert second.error is not None and second.error.type == "Timeout"
    assert third.result == music_query(COUNT_SQL)
    assert (answer.votes, answer.agreement) == (1, 1.0)


def test_a_sure_greedy_program_answers_alone(llm, voting, examples):
    stopping = dataclasses.replace(voting, stop_when_sure=True)
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=stopping)
    assert len(server.requests) == 1
    assert answer.answer == music_query(COUNT_SQL)
    assert (answer.votes, answer.agreement) == (1, 1.0)
    (vote,) = [event for event in answer.trace if event.node == "vote"]
    assert vote.detail["sure"] is True and vote.detail["decision"] == "answer"


def test_a_greedy_program_that_ran_to_nothing_is_not_sure(llm, voting, examples):
    stopping = dataclasses.replace(voting, stop_when_sure=True)
    nothing = "SELECT COUNT(*) FROM album WHERE 1 = 0 GROUP BY genre"
    script = [Step(fenced(nothing, "sql")), Step(fenced(COUNT_PANDAS))]
    script.append(Step(fenced(COUNT_SQL, "sql")))
    with llm(*script) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=stopping)
    assert len(server.requests) == 3
    assert answer.answer == music_query(COUNT_SQL) and answer.votes == 2


def test_a_corrected_greedy_program_is_not_sure(llm, voting, examples):
    stopping = dataclasses.replace(voting, stop_when_sure=True, max_attempts=2)
    failing = "SELECT COUNT(*) FROM nowhere_at_all"
    script = [Step(fenced(failing, "sql")), Step(fenced(COUNT_SQL, "sql"))]
    script.append(Step(fenced(COUNT_PANDAS)))
    with llm(*script) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=stopping)
    assert len(server.requests) == 3
    assert [c.attempts for c in answer.candidates] == [2, 1]
    assert answer.answer == music_query(COUNT_SQL) and answer.votes == 2


def test_the_vote_is_in_the_json_answer_of_the_cli(llm, pandora, examples):
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        run = pandora(
            "ask",
            QUESTION,
            "--source",
            str(examples / "music.sqlite"),
            "--representation",
            "sql",
            "--json",
            env={
                **os.environ,
                "OPENAI_BASE_URL": server.base_url,
                "OPENAI_API_KEY": "test-key",
                "PANDORA_MODEL": "fake-model",
            },
        )
    assert run.exit_code == 0, run.stderr
    answer = run.json
    assert answer["votes"] == 1 and answer["agreement"] == 1.0
    assert [c["origin"] for c in answer["candidates"]] == ["greedy"]


def test_a_misspelt_column_is_repaired_with_no_second_call(llm, voting, examples):
    one = dataclasses.replace(voting, candidates=1)
    misspelt = "SELECT COUNT(titel) FROM albums"
    with llm(Step(fenced(misspelt, "sql"))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=one)
    assert len(server.requests) == 1
    assert answer.answer == music_query(COUNT_SQL)
    assert answer.code == "SELECT COUNT(title) FROM album"
    repairs = [event.detail["changes"] for event in answer.trace if event.node == "repair"]
    assert repairs == [["table albums -> album"], ["column titel -> title"]]


def test_a_name_repair_cannot_decide_goes_back_to_the_llm(llm, voting, examples):
    retrying = dataclasses.replace(voting, candidates=1, max_attempts=2)
    missing_join = "SELECT name FROM album WHERE album_id = 1"
    right = "SELECT artist.name FROM album JOIN artist USING (artist_id) WHERE album_id = 1"
    with llm(Step(fenced(missing_join, "sql")), Step(fenced(right, "sql"))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=retrying)
    assert len(server.requests) == 2
    assert "no such column: name" in server.prompts()[1]
    assert answer.answer == music_query(right)


def test_a_question_the_data_cannot_answer_says_what_is_missing(llm, voting, examples):
    two = dataclasses.replace(voting, candidates=2)
    first = "SELECT AVG(tempo_bpm) FROM track"
    second = "result = track['tempo_bpm'].mean()"
    with llm(Step(fenced(first, "sql")), Step(fenced(second))):
        answer = ask(
            "What is the average tempo of the tracks?",
            [str(examples / "music.sqlite")],
            context=two,
        )
    assert answer.answer == [] and answer.error is not None
    assert answer.error.type == "NotInData"
    assert "'tempo_bpm'" in answer.error.message


def test_a_name_of_a_table_the_program_did_not_join_is_not_called_missing(llm, voting, examples):
    one = dataclasses.replace(voting, candidates=1, repair=False)
    with llm(Step(fenced("SELECT name FROM album", "sql"))):
        answer = ask("Who made each album?", [str(examples / "music.sqlite")], context=one)
    assert answer.error is not None and answer.error.type != "NotInData"


def test_example_rows_are_shown_and_the_off_switch_keeps_values_out(
    llm, voting, examples, monkeypatch
):
    shown = dataclasses.replace(voting, candidates=1, example_values=None)
    monkeypatch.setenv("PANDORA_EXAMPLE_VALUES", "2")
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        ask(QUESTION, [str(examples / "music.sqlite")], context=shown)
    first_title = music_query("SELECT title FROM album LIMIT 1")[0][0]
    assert "-- 2 example rows:" in server.prompts()[0]
    assert first_title in server.prompts()[0]
    monkeypatch.setenv("PANDORA_EXAMPLE_VALUES", "0")
    with llm(Step(fenced(COUNT_SQL, "sql"))) as server:
        ask(QUESTION, [str(examples / "music.sqlite")], context=shown)
    assert "example rows:" not in server.prompts()[0]
    assert first_title not in server.prompts()[0]
