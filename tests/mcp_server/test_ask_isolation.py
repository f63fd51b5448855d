"""One client's `ask` must not block the others, against the real
`pandora serve --transport http` and the SDK's own clients:

- a sampling request the client never answers holds no execution slot, and
  ends in a timeout error instead of waiting for ever;
- a server LLM that is slow to answer holds no execution slot either;
- when the asking client leaves, its agent stops instead of going on.

Every wait here is bounded.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest

from tests.fake_openai import Step, fake_openai_server
from tests.mcp_server.conftest import (
    EXAMPLES,
    connect_url,
    error_text,
    http_server,
    serve_arguments,
    server_environment,
    structured,
)

pytestmark = pytest.mark.slow

SAMPLING_TIMEOUT_SECONDS = 4
QUESTION = {"question": "How many albums are there?", "sources": ["music"]}
FAILING_REPLY = json.dumps({"reasoning": "count them", "code": "result = albums_missing.size"})


def one_slot_config(tmp_path: Path, *extra: str) -> Path:
    """A pandora.toml with one execution slot and no waiting for it."""
    config = tmp_path / "pandora.toml"
    lines = ["[mcp]", "max_concurrent_runs = 1", "busy_wait_seconds = 0", *extra]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config


def serve_music(config: Path) -> list[str]:
    return serve_arguments("--config", str(config), sources=[EXAMPLES / "music.sqlite"])


def test_an_unanswered_sampling_request_blocks_no_one(tmp_path: Path) -> None:
    config = one_slot_config(
        tmp_path, 'ask_llm = "client"', f"sampling_timeout_seconds = {SAMPLING_TIMEOUT_SECONDS}"
    )
    environment = server_environment(PANDORA_LOCAL_MODEL="off")
    outcomes: dict[str, Any] = {}
    sampled = anyio.Event()

    async def never_answers(context: Any, params: types.CreateMessageRequestParams) -> Any:
        sampled.set()
        await anyio.sleep(120)  # far beyond the server's sampling timeout

    async def scenario(url: str) -> None:
        async with (
            connect_url(url, sampling_callback=never_answers, mode="legacy") as asking,
            connect_url(url) as other,
        ):
            await other.call_tool("list_sources", {})

            async def ask() -> None:
                outcomes["ask"] = await asking.call_tool("ask", QUESTION)

            with anyio.fail_after(240):  # generous: the machine may be busy
                async with anyio.create_task_group() as group:
                    group.start_soon(ask)
                    await sampled.wait()
                    started = time.monotonic()
                    outcomes["other"] = await other.call_tool("run_pandas", {"code": "result = 1"})
                    outcomes["other_seconds"] = time.monotonic() - started

    with http_server(serve_music(config), environment=environment) as url:
        anyio.run(scenario, url)
    assert structured(outcomes["other"])["rows"] == [[1]]
    assert outcomes["other_seconds"] < SAMPLING_TIMEOUT_SECONDS  # not after the ask gave up
    assert f"did not answer within {SAMPLING_TIMEOUT_SECONDS} s" in error_text(outcomes["ask"])


def test_a_slow_server_llm_blocks_no_one(tmp_path: Path) -> None:
    script = [Step(reply=FAILING_REPLY, delay=8)]
    with fake_openai_server(script) as llm:
        environment = server_environment(
            OPENAI_BASE_URL=llm.base_url, OPENAI_API_KEY="test-key", PANDORA_MODEL="scripted"
        )
        outcomes: dict[str, Any] = {}

        async def scenario(url: str) -> None:
            async with connect_url(url) as asking, connect_url(url) as other:
                await other.call_tool("list_sources", {})
                with anyio.fail_after(90):
                    async with anyio.create_task_group() as group:
                        group.start_soon(asking.call_tool, "ask", QUESTION)
                        while not llm.requests:
                            await anyio.sleep(0.1)
                        outcomes["other"] = await other.call_tool(
                            "run_pandas", {"code": "result = 2"}
                        )
                        group.cancel_scope.cancel()

        with http_server(serve_music(one_slot_config(tmp_path)), environment=environment) as url:
            anyio.run(scenario, url)
    assert structured(outcomes["other"])["rows"] == [[2]]


def test_the_agent_stops_when_its_client_leaves(tmp_path: Path) -> None:
    # Each reply is a failing program, so a running agent asks again (3 attempts).
    script = [Step(reply=FAILING_REPLY, delay=3) for _ in range(3)]
    with fake_openai_server(script) as llm:
        environment = server_environment(
            OPENAI_BASE_URL=llm.base_url, OPENAI_API_KEY="test-key", PANDORA_MODEL="scripted"
        )

        async def leave_while_the_llm_thinks(url: str) -> None:
            with anyio.fail_after(60):
                async with connect_url(url) as asking, anyio.create_task_group() as group:
                    group.start_soon(asking.call_tool, "ask", QUESTION)
                    while not llm.requests:
                        await anyio.sleep(0.1)
                    group.cancel_scope.cancel()
            await anyio.sleep(12)  # long enough for two more completions, had it gone on

        with http_server(serve_music(one_slot_config(tmp_path)), environment=environment) as url:
            anyio.run(leave_while_the_llm_thinks, url)
        assert len(llm.requests) == 1
