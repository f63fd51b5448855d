"""The server's sources: loaded once in the background, with progress for
callers that wait, and failures reported per source instead of stopping it."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from mcp_server.catalog import SourceCatalog
from mcp_server.config import SourceEntry
from plugins.errors import BadInputError
from tests.mcp_server.conftest import EXAMPLES


def test_a_caller_waiting_for_the_sources_hears_progress(tmp_path: Path) -> None:
    broken = tmp_path / "broken.csv"
    broken.write_text("a,b\n", encoding="utf-8")  # header only: refused by the loader
    catalog = SourceCatalog(
        [
            SourceEntry(location=str(EXAMPLES / "music.sqlite")),
            SourceEntry(location=str(broken)),
            SourceEntry(location=str(EXAMPLES / "cities.csv"), name="towns"),
        ]
    )
    heard: list[tuple[float, float, str]] = []

    async def report(done: float, total: float, message: str) -> None:
        heard.append((done, total, message))

    async def scenario() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(catalog.load_all)
            await catalog.wait_until_loaded(report)

    anyio.run(scenario)
    assert heard[0][1] == 3
    assert "loading source" in heard[0][2]
    assert [entry.status for entry in catalog.entries] == ["ready", "failed", "ready"]
    assert [source.name for source in catalog.ready_sources()] == ["music", "towns"]
    with pytest.raises(BadInputError, match="failed to load"):
        catalog.source(str(broken))
    with pytest.raises(BadInputError, match="music, towns"):
        catalog.source("nowhere")


def test_default_workspaces_follow_what_the_code_can_run_on() -> None:
    catalog = SourceCatalog(
        [
            SourceEntry(location=str(EXAMPLES / "music.sqlite")),
            SourceEntry(location=str(EXAMPLES / "cities.csv")),
            SourceEntry(location=str(EXAMPLES / "films.ttl")),
        ]
    )
    anyio.run(catalog.load_all)
    pandas_names = [source.name for source in catalog.workspace().sources]
    assert pandas_names == ["music", "cities"]
    assert catalog.workspace() is catalog.workspace()  # built once, BOXes cached with it
    graph = catalog.workspace(default_kinds=("kg",))
    assert [source.name for source in graph.sources] == ["films"]
    assert [source.name for source in catalog.sql_workspace().sources] == ["music"]
