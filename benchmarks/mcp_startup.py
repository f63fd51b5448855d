"""Start-up of `pandora serve` over stdio, next to `python -c "import mcp"`.

Each round spawns a fresh server and speaks newline-delimited JSON-RPC to it
directly (no client library in the way), timing from the spawn to: the
answer to `initialize`, the answer to the first `tools/list`, and the answer
to the first `list_sources` call (which waits until the sources are loaded).
The baseline, importing the MCP SDK in a fresh interpreter (which any MCP
server in Python pays), is timed in the same rounds, so the ratio holds on
any machine. Target (issue 26): the first `tools/list` within 1.5 s.

Run: python benchmarks/mcp_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

REPOSITORY = Path(__file__).resolve().parent.parent
MUSIC = REPOSITORY / "examples" / "music.sqlite"
SERVE = [sys.executable, "-m", "cli", "serve", "--source", str(MUSIC)]
BASELINE = [sys.executable, "-c", "import mcp"]
BASELINE_LABEL = 'python -c "import mcp" (baseline)'
TARGET_SECONDS = 1.5
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "startup-benchmark", "version": "1"},
    },
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
LIST_SOURCES = {
    "jsonrpc": "2.0",
    "id": 3,
    "method": "tools/call",
    "params": {"name": "list_sources", "arguments": {}},
}
MILESTONES = ("initialize", "first tools/list", "sources loaded (list_sources)")


def send(pipe: IO[str], message: dict[str, Any]) -> None:
    """Write one JSON-RPC message to the server."""
    pipe.write(json.dumps(message) + "\n")
    pipe.flush()


def answer_to(pipe: IO[str], request_id: int) -> dict[str, Any]:
    """Read messages until the answer to `request_id` (skipping notifications)."""
    while True:
        line = pipe.readline()
        if not line:
            raise RuntimeError("the server closed its output")
        message = json.loads(line)
        if message.get("id") == request_id:
            return message


def one_start() -> list[float]:
    """Seconds from spawning a server to each milestone."""
    started = time.perf_counter()
    server = subprocess.Popen(
        SERVE,
        cwd=REPOSITORY,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        times = []
        send(server.stdin, INITIALIZE)
        answer_to(server.stdout, 1)
        times.append(time.perf_counter() - started)
        send(server.stdin, INITIALIZED)
        send(server.stdin, LIST_TOOLS)
        tools = answer_to(server.stdout, 2)["result"]["tools"]
        times.append(time.perf_counter() - started)
        assert any(tool["name"] == "list_sources" for tool in tools)
        send(server.stdin, LIST_SOURCES)
        answer_to(server.stdout, 3)
        times.append(time.perf_counter() - started)
        return times
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def baseline_seconds() -> float:
    """Seconds of `python -c "import mcp"` in a fresh interpreter."""
    started = time.perf_counter()
    subprocess.run(BASELINE, check=True, cwd=REPOSITORY)
    return time.perf_counter() - started


def main() -> None:
    """Time the rounds and print medians and ratios to the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds (median kept)")
    repeat = parser.parse_args().repeat
    baselines, starts = [], []
    for _ in range(repeat):
        baselines.append(baseline_seconds())
        starts.append(one_start())
    baseline = statistics.median(baselines)
    print(f"median of {repeat} rounds, Python {sys.version.split()[0]}")
    print(f"{'milestone':34} {'seconds':>8} {'x import mcp':>13}")
    print(f"{BASELINE_LABEL:34} {baseline:8.3f} {1:13.2f}")
    for index, milestone in enumerate(MILESTONES):
        seconds = statistics.median(start[index] for start in starts)
        verdict = ""
        if milestone == "first tools/list":
            met = "met" if seconds <= TARGET_SECONDS else "MISSED"
            verdict = f"  target {TARGET_SECONDS} s: {met}"
        print(f"{milestone:34} {seconds:8.3f} {seconds / baseline:13.2f}{verdict}")


if __name__ == "__main__":
    main()
