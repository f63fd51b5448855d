"""The MCP Inspector's command-line mode as an independent client of `pandora serve`.

npm package `@modelcontextprotocol/inspector`, installed into a temporary
folder; skipped (saying why) when npm is missing or its registry unreachable.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp_server.conftest import EXAMPLES, REPOSITORY

pytestmark = pytest.mark.slow

PACKAGE = "@modelcontextprotocol/inspector"


@pytest.fixture(scope="module")
def inspector(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Inspector's executable, freshly installed from the npm registry."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("npm and node are not installed")
    try:
        reachable = subprocess.run(
            [npm, "view", PACKAGE, "version"], capture_output=True, text=True, timeout=60
        )
    except subprocess.TimeoutExpired:
        pytest.skip("the npm registry did not answer within 60 s")
    if reachable.returncode != 0:
        pytest.skip(f"the npm registry is unreachable: {reachable.stderr.strip()[:200]}")
    folder = tmp_path_factory.mktemp("inspector")
    installed = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--prefix", str(folder), PACKAGE],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert installed.returncode == 0, installed.stderr
    return folder / "node_modules" / ".bin" / "mcp-inspector"


def inspect(inspector: Path, home: Path, *method: str) -> Any:
    """Run the Inspector's CLI mode against `pandora serve` over stdio; its JSON output."""
    command = [
        str(inspector),
        "--cli",
        "-e",
        f"PANDORA_HOME={home}",
        sys.executable,
        "-m",
        "cli",
        "serve",
        "--source",
        str(EXAMPLES / "music.sqlite"),
        *method,
    ]
    completed = subprocess.run(command, cwd=REPOSITORY, capture_output=True, text=True, timeout=180)
    assert completed.returncode == 0, completed.stderr
    return json.loads(completed.stdout)


def test_the_inspector_lists_the_tools(inspector: Path, memory_home: Path) -> None:
    listed = inspect(inspector, memory_home, "--method", "tools/list")
    names = {tool["name"] for tool in listed["tools"]}
    assert {"list_sources", "run_pandas", "run_sql", "ask"} <= names
    assert all("outputSchema" in tool for tool in listed["tools"])


def test_the_inspector_calls_a_tool(inspector: Path, memory_home: Path) -> None:
    called = inspect(
        inspector,
        memory_home,
        "--method",
        "tools/call",
        "--tool-name",
        "run_sql",
        "--tool-arg",
        "query=SELECT COUNT(*) AS albums FROM album",
    )
    assert called["isError"] is False
    assert called["structuredContent"]["columns"] == ["albums"]
    with sqlite3.connect(EXAMPLES / "music.sqlite") as connection:
        albums = connection.execute("SELECT COUNT(*) FROM album").fetchone()[0]
    assert called["structuredContent"]["rows"] == [[albums]]
