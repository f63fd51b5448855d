"""The agent's loop end to end against a fake OpenAI-compatible server on
127.0.0.1 (tests/fake_openai.py): real langchain-openai client, real
executor, real SQLite / rdflib sources, real Chroma memory. Answers are
checked against sqlite3 run on the same file."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

from agent import AgentContext, ask, build_graph
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

MOST_ALBUMS = (
    "result = album.merge(artist, on='artist_id').groupby('name').size()"
    ".sort_values(ascending=False).index[:1].tolist()"
)
MOST_ALBUMS_SQL = (
    "SELECT artist.name FROM album JOIN artist USING (artist_id) "
    "GROUP BY artist.artist_id ORDER BY COUNT(*) DESC LIMIT 1"
)


def as_json_reply(code: str, reasoning: str = "join, count, take the top") -> str:
    """A reply in the requested json_schema shape: code as a list of lines."""
    return json.dumps({"reasoning": reasoning, "code": code.splitlines()})


def test_the_graph_has_the_design_nodes_and_edges():
    drawn = build_graph().get_graph()
    assert set(drawn.nodes) == {
        "__start__",
        "plan",
        "read_data",
        "retrieve_demonstrations",
        "generate_code",
        "execute",
        "repair",
        "reflect",
        "vote",
        "__end__",
    }
    assert {(edge.source, edge.target) for edge in drawn.edges} == {
        ("__start__", "plan"),
        ("plan", "retrieve_demonstrations"),
        ("plan", "execute"),
        ("read_data", "vote"),
        ("read_data", "retrieve_demonstrations"),
        ("retrieve_demonstrations", "generate_code"),
        ("generate_code", "execute"),
        ("generate_code", "reflect"),
        ("generate_code", "vote"),
        ("execute", "repair"),
        ("execute", "reflect"),
        ("repair", "execute"),
        ("repair", "reflect"),
        ("reflect", "generate_code"),
        ("reflect", "retrieve_demonstrations"),
        ("reflect", "vote"),
        ("vote", "read_data"),
        ("vote", "retrieve_demonstrations"),
        ("vote", "__end__"),
    }


def test_an_error_reaches_the_second_prompt_and_the_second_program_answers(llm, context, examples):
    wrong = "result = albums.groupby('artist_id').size()"  # `albums` does not exist
    without_repair = dataclasses.replace(context, repair=False)
    with llm(Step(fenced(wrong)), Step(as_json_reply(MOST_ALBUMS))) as server:
        answer = ask(
            "Which artist has the most albums?",
            [str(examples / "music.sqlite")],
            context=without_repair,
        )
    assert answer.error is None
    assert answer.answer == music_query(MOST_ALBUMS_SQL)
    assert (answer.attempts, answer.llm_calls) == (2, 2)
    assert len(server.requests) == 2
    first, second = server.prompts()
    assert "NameError" not in first
    assert "NameError" in second and "name 'albums' is not defined" in second
    assert "Did you mean the BOX 'album'?" in second
    # the feedback comes last: the second prompt starts with the whole first one
    assert second.startswith(first)
    assert answer.prompt_tokens == sum(server.prompt_tokens())
    assert answer.completion_tokens == sum(server.completion_tokens())


def test_an_empty_result_is_fed_back_with_the_close_values(llm, context, examples):
    # a misspelling, not a case: repair would write 'Finland' for 'finland' itself
    empty = "result = artist[artist['country'] == 'Finnland']['name'].tolist()"
    right = "result = artist[artist['country'].str.lower() == 'finland']['name'].tolist()"
    with llm(Step(fenced(empty)), Step(fenced(right))) as server:
        answer = ask(
            "Which artists are from Finland?", [str(examples / "music.sqlite")], context=context
        )
    expected = music_query("SELECT name FROM artist WHERE lower(country) = 'finland'")
    assert expected and sorted(answer.answer) == sorted(expected)
    second = server.prompts()[1]
    assert "returned no rows" in second
    assert "'Finnland' is not a value in the data" in second
    assert "artist['country'] has 'Finland'" in second


def test_a_reply_without_code_is_an_attempt_with_feedback(llm, context, examples):
    with llm(
        Step("The artist with the most albums is probably a famous one."), Step(fenced(MOST_ALBUMS))
    ) as server:
        answer = ask(
            "Which artist has the most albums?", [str(examples / "music.sqlite")], context=context
        )
    assert answer.answer == music_query(MOST_ALBUMS_SQL)
    assert (answer.attempts, answer.llm_calls) == (2, 2)
    assert "the reply held no code" in server.prompts()[1]


def test_a_reply_cut_at_the_token_limit_is_an_attempt_with_feedback(llm, context, examples):
    """The fake server cuts the first structured reply (finish_reason "length"):
    the OpenAI client raises on it; the agent must treat it as an unreadable
    attempt and ask again, not crash."""
    cut = as_json_reply(MOST_ALBUMS)[:40]
    with llm(Step(cut, finish_reason="length"), Step(as_json_reply(MOST_ALBUMS))) as server:
        answer = ask(
            "Which artist has the most albums?", [str(examples / "music.sqlite")], context=context
        )
    assert answer.error is None
    assert answer.answer == music_query(MOST_ALBUMS_SQL)
    assert (answer.attempts, answer.llm_calls) == (2, 2)
    assert cut not in server.prompts()[0]
    assert len(server.requests) == 2


def test_attempts_exhausted_on_a_table_is_a_clear_failure_with_the_last_error(
    llm, context, examples
):
    codes = ["result = album['nope']", "result = album['still_nope']", "result = 1 / 0"]
    with llm(*(Step(fenced(code)) for code in codes)) as server:
        answer = ask(
            "What is the average album price?", [str(examples / "music.sqlite")], context=context
        )
    assert len(server.requests) == 3
    assert (answer.attempts, answer.llm_calls) == (3, 3)
    assert answer.answer == [] and not answer.soft
    assert answer.error is not None and answer.error.type == "ZeroDivisionError"
    assert answer.code == "result = 1 / 0"


def test_attempts_exhausted_on_a_kg_gives_the_soft_answer_of_the_last_comment(
    llm, context, examples
):
    failing = (
        "def KGQA(question, graph):\n"
        "    # films whose director is Alfred Hitchcock\n"
        "    films = graph.no_such_method('Alfred Hitchcock')\n"
        "    return films\n"
        "    # answer: ['Vertigo', 'Rear Window']"
    )
    with llm(*(Step(fenced(failing)) for _ in range(3))) as server:
        answer = ask(
            "Which films did Alfred Hitchcock direct?",
            [str(examples / "films.ttl")],
            representation="networkx",
            context=context,
        )
    assert len(server.requests) == 3
    assert answer.soft is True and answer.error is None
    assert answer.answer == [["Vertigo"], ["Rear Window"]]
    assert answer.representation == "networkx"
    assert "AttributeError" in server.prompts()[1]


def test_sql_on_a_kg_runs_on_the_tables_of_the_questions_boxes(llm, context, examples):
    query = (
        "SELECT film FROM film WHERE directed_by = 'Alfred Hitchcock' "
        "AND runtime_minutes > 110 ORDER BY film"
    )
    with llm(Step(fenced(query, "sql"))) as server:
        answer = ask(
            "Which films longer than 110 minutes did Alfred Hitchcock direct?",
            [str(examples / "films.ttl")],
            representation="sql",
            context=context,
        )
    assert len(server.requests) == 1
    assert 'CREATE TABLE "film" (' in server.prompts()[0]
    assert answer.error is None and answer.representation == "sql"
    assert answer.answer == [["Rear Window"], ["Vertigo"]]


def test_without_execution_guidance_the_first_failure_ends_the_run(llm, store, examples):
    with llm(Step(fenced("result = album['nope']")), Step(fenced(MOST_ALBUMS))) as server:
        answer = ask(
            "Which artist has the most albums?",
            [str(examples / "music.sqlite")],
            context=AgentContext(store=store, execution_guidance=False),
        )
    assert len(server.requests) == 1
    assert answer.error is not None and answer.error.type == "NotInData"
    assert "'nope'" in answer.error.message


def test_the_direct_answer_baseline_runs_no_code(llm, store, examples):
    reply = json.dumps({"reasoning": "I recall it", "answer": ["Aino Virtanen"]})
    with llm(Step(reply)) as server:
        answer = ask(
            "Which artist has the most albums?",
            [str(examples / "music.sqlite")],
            context=AgentContext(store=store, direct_answer=True),
        )
    assert answer.answer == [["Aino Virtanen"]] and answer.code == ""
    assert len(server.requests) == 1
    prompt = server.prompts()[0]
    assert "### artist (" in prompt and "Aino Virtanen" in prompt  # the rows, not just the schema
    assert not any(event.node == "execute" for event in answer.trace)


def test_a_direct_answer_of_several_values_is_several_rows(llm, store, examples):
    reply = json.dumps({"reasoning": "two genres", "answer": ["Jazz", "Rock"]})
    with llm(Step(reply)) as server:
        answer = ask(
            "Which genres have albums over 10 dollars?",
            [str(examples / "music.sqlite")],
            context=AgentContext(store=store, direct_answer=True),
        )
    assert answer.answer == [["Jazz"], ["Rock"]] and answer.columns == ["answer"]
    assert server.requests[0]["response_format"]["json_schema"]["schema"]["properties"][
        "answer"
    ] == {"type": "array", "items": {"type": "string"}, "minItems": 1}


def test_a_fenced_reply_stops_at_its_closing_fence_and_a_json_one_does_not(llm, store, examples):
    steps = (Step(fenced(MOST_ALBUMS)), Step(fenced(MOST_ALBUMS)), Step(as_json_reply(MOST_ALBUMS)))
    with llm(*steps) as server:
        for reply_format in ("fenced", "code", "json"):
            answer = ask(
                "Which artist has the most albums?",
                [str(examples / "music.sqlite")],
                context=AgentContext(store=store, reply_format=reply_format, candidates=1),
            )
            assert answer.error is None
    fenced_request, code_request, json_request = server.requests
    assert fenced_request["stop"] == code_request["stop"] == ["```\n\n"]
    assert "stop" not in json_request
    fenced_prompt, code_prompt, _ = server.prompts()
    assert "one sentence saying the steps" in fenced_prompt
    assert "only the code in one ```python block" in code_prompt
    assert "one sentence" not in code_prompt


def test_a_yes_no_question_answered_with_a_comparison_reads_yes(llm, context, examples):
    query = "SELECT COUNT(*) > 0 FROM album WHERE price > 10"
    assert music_query(query) == [[1]]
    with llm(Step(fenced(query, "sql"))):
        answer = ask(
            "Is there an album that costs more than 10 dollars?",
            [str(examples / "music.sqlite")],
            representation="sql",
            context=dataclasses.replace(context, candidates=1),
        )
    assert answer.error is None
    assert answer.answer == [["Yes"]]


def test_sql_representation_runs_the_query_through_the_executor(llm, context, examples):
    with llm(Step(fenced(MOST_ALBUMS_SQL, "sql"))) as server:
        answer = ask(
            "Which artist has the most albums?",
            [str(examples / "music.sqlite")],
            representation="sql",
            context=context,
        )
    assert answer.answer == music_query(MOST_ALBUMS_SQL)
    assert answer.representation == "sql"
    assert "CREATE TABLE album" in server.prompts()[0]
    assert "sqlite dialect" in server.prompts()[0]


def test_events_arrive_in_node_order_as_they_happen(llm, context, examples):
    seen: list[tuple[str, str]] = []
    with llm(Step(fenced(MOST_ALBUMS))):
        answer = ask(
            "Which artist has the most albums?",
            [str(examples / "music.sqlite")],
            context=context,
            on_event=lambda e: seen.append((e.node, e.event)),
        )
    assert seen == [
        ("plan", "plan"),
        ("retrieve_demonstrations", "demonstrations"),
        ("generate_code", "code"),
        ("execute", "execution"),
        ("reflect", "candidate"),
        ("vote", "vote"),
    ]
    assert [(e.node, e.event) for e in answer.trace] == seen


def test_the_graph_runs_as_a_subgraph_of_a_users_graph(llm, context, examples):
    class Outer(TypedDict, total=False):
        question: str
        sources: list[str]
        answer: Any

    outer = StateGraph(Outer, context_schema=AgentContext)
    outer.add_node("pandora", build_graph())
    outer.add_edge(START, "pandora")
    with llm(Step(fenced(MOST_ALBUMS))):
        result = outer.compile().invoke(
            {
                "question": "Which artist has the most albums?",
                "sources": [str(examples / "music.sqlite")],
            },
            context=context,
        )
    assert result["answer"].answer == music_query(MOST_ALBUMS_SQL)
