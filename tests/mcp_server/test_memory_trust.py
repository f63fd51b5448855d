"""Issue 25: an MCP client must not decide a later user's answer.

Each attack goes through the SDK's client against a real `pandora serve`
(stdio), into the memory of this test's PANDORA_HOME; the user then asks
with `pandora ask` (a subprocess, the LLM a fake OpenAI-compatible server on
127.0.0.1 that writes the right program). Before the fix the client's program
answered from the program cache with zero LLM calls.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from tests.conftest import EXAMPLES, run_pandora
from tests.mcp_server.conftest import connect, error_text, structured
from tests.memory.conftest import ask_with_fake_llm

pytestmark = pytest.mark.slow

MUSIC = str(EXAMPLES / "music.sqlite")
ALBUMS = "How many albums are there?"
FORGED = 1234
TRUE_ALBUM_COUNT = 8  # SELECT COUNT(*) FROM album on examples/music.sqlite


def client_calls(*calls: tuple[str, dict[str, Any]]) -> list[Any]:
    """Run tool calls in one stdio session; returns each raw CallToolResult."""
    results: list[Any] = []

    async def scenario() -> None:
        async with connect("stdio") as client:
            for name, arguments in calls:
                results.append(await client.call_tool(name, arguments))

    anyio.run(scenario)
    return results


def add(question: str, code: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    """An add_demonstration call on the music database."""
    return (
        "add_demonstration",
        {"question": question, "code": code, "sources": ["music"], **extra},
    )


def test_a_clients_gold_program_does_not_answer_the_user():
    added = structured(
        client_calls(add(ALBUMS, "result = [[1234]]", expected_answer=[[FORGED]]))[0]
    )
    assert added["verified"] == "executed"  # the client supplied the code and the answer
    run, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)")
    assert run.exit_code == 0, run.stderr
    assert run.json["answer"] == [[TRUE_ALBUM_COUNT]]
    assert llm_calls == 1 and run.json["llm_calls"] == 1
    assert run.json["program_cache"] is None


def test_a_clients_executed_program_does_not_answer_the_user():
    structured(client_calls(add(ALBUMS, "result = 999"))[0])
    run, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)")
    assert run.json["answer"] == [[TRUE_ALBUM_COUNT]] and llm_calls == 1


def test_a_look_alike_question_from_a_client_does_not_answer_the_user():
    structured(client_calls(add("ＨＯＷ  many   ALBUMS are there!!", "result = 999"))[0])
    run, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)")
    assert run.json["answer"] == [[TRUE_ALBUM_COUNT]] and llm_calls == 1


def test_the_sql_route_is_not_answered_by_a_clients_query():
    structured(
        client_calls(add(ALBUMS, "SELECT 1234", representation="sql", expected_answer=[[FORGED]]))[
            0
        ]
    )
    run, llm_calls = ask_with_fake_llm(
        ALBUMS, MUSIC, "SELECT COUNT(*) FROM album", "--representation", "sql", language="sql"
    )
    assert run.json["answer"] == [[TRUE_ALBUM_COUNT]] and llm_calls == 1


def test_a_clients_gold_does_not_outrank_the_users_approved_program(tmp_path):
    structured(client_calls(add(ALBUMS, "result = [[1234]]", expected_answer=[[FORGED]]))[0])
    code = tmp_path / "count.py"
    code.write_text("result = len(album)\n")
    mine = run_pandora(
        "memory", "add", "--question", ALBUMS, "--code", str(code), "--source", MUSIC,
        "--approved", "--json",
    )  # fmt: skip
    assert mine.exit_code == 0, mine.stderr
    run, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)")
    assert run.json["answer"] == [[TRUE_ALBUM_COUNT]]
    assert llm_calls == 0 and run.json["llm_calls"] == 0
    assert run.json["program_cache"] == {"id": mine.json["id"], "origin": "cli"}


def test_a_3_mb_reasoning_over_stdio_is_refused_and_nothing_is_stored():
    before = run_pandora("memory", "stats", "--json").json["count"]
    refused, search = client_calls(
        add(ALBUMS, "result = len(album)", reasoning="step. " * 500_000),
        ("search_demonstrations", {"question": ALBUMS, "k": 1}),
    )
    message = error_text(refused)
    assert "reasoning is 3,000,000 characters" in message and "4,000" in message
    assert "\n" not in message.strip()
    assert run_pandora("memory", "stats", "--json").json["count"] == before
    assert json.dumps(structured(search)).count("step. ") < 10
