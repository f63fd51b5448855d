"""What the MCP layer costs: `describe_source` and a small `run_pandas` through
`pandora serve` (over stdio and streamable HTTP, the SDK's own client),
next to the same work done in this process without MCP, in the same run.

Baselines: `describe_source` against building the same schema in-process
(`mcp_server.schemas.source_schema`, cached as the server caches it);
`run_pandas` against `plugins.executor.execute` on a warm worker. Calls are
sequential, one at a time, so calls/s is 1 / mean latency. Also measured:
start-up, from spawning the server to its first answered `tools/list`.
Target: the MCP layer adds under 5 ms p50.

Run: python benchmarks/mcp_roundtrip.py [--calls 200] [--startups 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

from mcp_server.schemas import source_schema  # noqa: E402
from plugins import Workspace, load_source  # noqa: E402
from plugins.executor import default_pool, execute  # noqa: E402
from tests.mcp_server.conftest import http_server, server_environment  # noqa: E402

SOURCE = REPOSITORY / "examples" / "music.sqlite"
CODE = "result = album.groupby('genre').size()"
SERVE = ["-m", "cli", "serve", "--source", str(SOURCE)]
WARM_UP_CALLS = 10


@dataclass
class Timing:
    """Latencies of one measured operation, in milliseconds."""

    label: str
    milliseconds: list[float]

    @property
    def p50(self) -> float:
        """Median latency."""
        return statistics.median(self.milliseconds)

    @property
    def p95(self) -> float:
        """95th percentile latency."""
        return statistics.quantiles(self.milliseconds, n=20)[-1]

    @property
    def calls_per_second(self) -> float:
        """Sequential throughput: one call at a time."""
        return 1000 / statistics.fmean(self.milliseconds)


def measure_sync(label: str, operation: Callable[[], object], calls: int) -> Timing:
    """Time `operation` `calls` times after a warm-up."""
    for _ in range(WARM_UP_CALLS):
        operation()
    latencies = []
    for _ in range(calls):
        started = time.perf_counter()
        operation()
        latencies.append((time.perf_counter() - started) * 1000)
    return Timing(label, latencies)


async def measure_async(
    label: str, operation: Callable[[], Awaitable[object]], calls: int
) -> Timing:
    """Time the awaitable `operation` `calls` times after a warm-up."""
    for _ in range(WARM_UP_CALLS):
        await operation()
    latencies = []
    for _ in range(calls):
        started = time.perf_counter()
        await operation()
        latencies.append((time.perf_counter() - started) * 1000)
    return Timing(label, latencies)


async def measure_client(client: Client, transport: str, calls: int) -> list[Timing]:
    """describe_source and run_pandas through one connected client."""

    async def describe() -> None:
        result = await client.call_tool("describe_source", {"source": "music"})
        assert not result.is_error, result.content

    async def run() -> None:
        result = await client.call_tool("run_pandas", {"code": CODE})
        assert not result.is_error, result.content

    return [
        await measure_async(f"describe_source over {transport}", describe, calls),
        await measure_async(f"run_pandas over {transport}", run, calls),
    ]


def stdio_parameters() -> StdioServerParameters:
    """How the SDK client starts `pandora serve` over stdio."""
    return StdioServerParameters(
        command=sys.executable, args=SERVE, env=server_environment(), cwd=str(REPOSITORY)
    )


async def over_stdio(calls: int) -> list[Timing]:
    """The two tools through a stdio server."""
    async with Client(stdio_parameters(), read_timeout_seconds=120) as client:
        return await measure_client(client, "stdio", calls)


def over_http(calls: int) -> list[Timing]:
    """The two tools through a streamable HTTP server on loopback."""
    with http_server(SERVE) as url:

        async def session() -> list[Timing]:
            async with Client(url, read_timeout_seconds=120) as client:
                return await measure_client(client, "http", calls)

        return anyio.run(session)


async def start_up_seconds() -> float:
    """Seconds from spawning a stdio server to its first answered tools/list."""
    started = time.perf_counter()
    async with Client(stdio_parameters(), read_timeout_seconds=120) as client:
        await client.list_tools()
        return time.perf_counter() - started


def in_process(calls: int) -> list[Timing]:
    """The same work without MCP: the schema built in-process, the program on
    the executor directly (a warm worker)."""
    workspace = Workspace.of([load_source(str(SOURCE))])
    default_pool().warm(workspace, "pandas")
    return [
        measure_sync(
            "describe_source in-process",
            lambda: source_schema(workspace, "pandas", None),
            calls,
        ),
        measure_sync("run_pandas on the executor", lambda: execute(CODE, workspace), calls),
    ]


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--startups", type=int, default=3)
    arguments = parser.parse_args()

    baseline = {timing.label.split()[0]: timing for timing in in_process(arguments.calls)}
    measured = anyio.run(over_stdio, arguments.calls) + over_http(arguments.calls)

    print(f"{arguments.calls} sequential calls each, after {WARM_UP_CALLS} warm-up calls")
    print(
        f"| {'what':34} | {'p50 ms':>8} | {'p95 ms':>8} | {'calls/s':>8} "
        f"| {'added p50 ms':>12} | {'p50 ratio':>9} |"
    )
    print(f"|{'-' * 36}|{'-' * 10}|{'-' * 10}|{'-' * 10}|{'-' * 14}|{'-' * 11}|")
    for timing in [*baseline.values(), *measured]:
        base = baseline[timing.label.split()[0]]
        added = timing.p50 - base.p50
        ratio = timing.p50 / base.p50 if base.p50 else float("inf")
        print(
            f"| {timing.label:34} | {timing.p50:8.2f} | {timing.p95:8.2f} "
            f"| {timing.calls_per_second:8.1f} | {added:12.2f} | {ratio:9.2f} |"
        )
    startups = [anyio.run(start_up_seconds) for _ in range(arguments.startups)]
    print(
        f"start-up to the first answered tools/list (stdio, {len(startups)} runs): "
        f"median {statistics.median(startups):.2f} s, min {min(startups):.2f} s"
    )


if __name__ == "__main__":
    main()
