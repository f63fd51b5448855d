"""Concurrent executions are limited: a call beyond the limit waits up to
`busy_wait_seconds`, then gets a clear busy error; the server goes on."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tests.mcp_server.conftest import connect, error_text, structured

pytestmark = pytest.mark.slow

SLOW_PROGRAM = "total = 0\nfor number in range(30_000_000):\n    total += number\nresult = total"


def test_a_call_beyond_the_limit_gets_a_busy_error(tmp_path: Path) -> None:
    config = tmp_path / "pandora.toml"
    config.write_text(
        "[mcp]\nmax_concurrent_runs = 1\nbusy_wait_seconds = 0\ntimeout_seconds = 60\n",
        encoding="utf-8",
    )
    outcomes: dict[str, object] = {}

    async def scenario() -> None:
        async with connect("stdio", "--config", str(config)) as client:
            await client.call_tool("list_sources", {})  # loaded: the next calls start at once

            async def slow() -> None:
                outcomes["slow"] = await client.call_tool("run_pandas", {"code": SLOW_PROGRAM})

            async with anyio.create_task_group() as group:
                group.start_soon(slow)
                await anyio.sleep(0.5)
                outcomes["refused"] = await client.call_tool("run_pandas", {"code": "result = 1"})
            outcomes["after"] = await client.call_tool("run_pandas", {"code": "result = 2"})

    anyio.run(scenario)
    assert structured(outcomes["slow"])["rows"] == [[sum(range(30_000_000))]]
    assert "busy" in error_text(outcomes["refused"])
    assert structured(outcomes["after"])["rows"] == [[2]]
