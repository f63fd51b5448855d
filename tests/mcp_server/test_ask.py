"""The `ask` tool end to end, with the LLM replaced by scripted replies in two ways:

- the server's own LLM is a fake OpenAI-compatible HTTP server started here
  on 127.0.0.1, whose every chat completion is a scripted JSON reply;
- the client's model, through MCP sampling: the test client implements the
  sampling callback and answers with a scripted reply (over a 2026-07-28
  connection, where sampling travels as input-required rounds, and over a
  2025-11-25 one, where the server sends the request mid-call; over stdio
  and over HTTP).

The answers are checked against sqlite3 computing the same question.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.fake_openai import FakeOpenAIServer, fake_openai_server
from tests.mcp_server.conftest import EXAMPLES, connect, error_text, server_environment, structured

pytestmark = pytest.mark.slow

QUESTION = "Which genre has the most albums?"
REPLY = {
    "reasoning": "count the albums of each genre and keep the largest counts",
    "code": (
        "counts = album.groupby('genre').size()\n"
        "result = sorted(counts[counts == counts.max()].index)"
    ),
}


def most_common_genres() -> list[list[str]]:
    """The answer, computed by sqlite3 on the same file."""
    query = """
        WITH counts AS (SELECT genre, COUNT(*) AS albums FROM album GROUP BY genre)
        SELECT genre FROM counts WHERE albums = (SELECT MAX(albums) FROM counts) ORDER BY genre
    """
    with sqlite3.connect(EXAMPLES / "music.sqlite") as connection:
        return [list(row) for row in connection.execute(query)]


@pytest.fixture
def scripted_openai() -> Iterator[FakeOpenAIServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1 answering every chat
    completion with REPLY; it keeps the requests it got."""
    with fake_openai_server(lambda messages: json.dumps(REPLY)) as server:
        yield server


@pytest.fixture
def client_model_config(tmp_path: Path) -> Path:
    """A pandora.toml that makes `ask` use the client's model (sampling) only."""
    config = tmp_path / "pandora.toml"
    config.write_text('[mcp]\nask_llm = "client"\n', encoding="utf-8")
    return config


def scripted_sampling(sampled: list[types.CreateMessageRequestParams]) -> Any:
    """A sampling callback answering every request with the scripted reply."""

    async def sampling(context: Any, params: types.CreateMessageRequestParams) -> Any:
        sampled.append(params)
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=json.dumps(REPLY)),
            model="scripted-client-model",
        )

    return sampling


def ask_music(
    *serve: str, environment: dict[str, str], transport: str = "stdio", **client_options: Any
) -> Any:
    """Ask QUESTION over music through a fresh server; the call's result."""

    async def scenario() -> Any:
        async with connect(transport, *serve, environment=environment, **client_options) as client:
            return await client.call_tool("ask", {"question": QUESTION, "sources": ["music"]})

    return anyio.run(scenario)


def test_ask_with_the_servers_llm(scripted_openai: FakeOpenAIServer) -> None:
    environment = server_environment(
        OPENAI_BASE_URL=scripted_openai.base_url,
        OPENAI_API_KEY="test-key",
        PANDORA_MODEL="scripted",
    )
    answer = structured(ask_music(environment=environment))
    assert answer["answer"] == most_common_genres()
    assert answer["code"] == REPLY["code"]
    assert answer["llm_calls"] >= 1
    nodes = [event["node"] for event in answer["trace"]]
    assert {"plan", "generate_code", "execute", "reflect"} <= set(nodes)
    execution = next(event for event in answer["trace"] if event["event"] == "execution")
    assert execution["detail"]["error"] is None
    prompt = json.dumps(scripted_openai.requests[-1]["messages"])
    assert QUESTION in prompt
    assert "album = pd.DataFrame(" in prompt


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_without_a_server_llm_ask_samples_the_clients_model(transport: str, mode: str) -> None:
    sampled: list[types.CreateMessageRequestParams] = []
    result = ask_music(
        environment=server_environment(PANDORA_LOCAL_MODEL="off"),
        transport=transport,
        sampling_callback=scripted_sampling(sampled),
        mode=mode,
    )
    answer = structured(result)
    assert answer["answer"] == most_common_genres()
    assert len(sampled) == answer["llm_calls"] >= 1
    assert QUESTION in sampled[0].messages[-1].content.text
    assert "pandas" in (sampled[0].system_prompt or "")


def test_ask_llm_client_prefers_the_clients_model(
    scripted_openai: FakeOpenAIServer, client_model_config: Path
) -> None:
    sampled: list[types.CreateMessageRequestParams] = []
    environment = server_environment(
        OPENAI_BASE_URL=scripted_openai.base_url,
        OPENAI_API_KEY="test-key",
        PANDORA_MODEL="scripted",
    )
    result = ask_music(
        "--config",
        str(client_model_config),
        environment=environment,
        sampling_callback=scripted_sampling(sampled),
    )
    assert structured(result)["answer"] == most_common_genres()
    assert sampled
    assert scripted_openai.requests == []


def test_ask_without_any_model_says_which_tools_to_use() -> None:
    message = error_text(ask_music(environment=server_environment(PANDORA_LOCAL_MODEL="off")))
    assert "sampling" in message
    assert "run_pandas" in message
