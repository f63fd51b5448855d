"""What a client's LLM meets: lenient list arguments, examples in the tool
descriptions that run as written, limits and choices in the input schemas,
and error messages in plain words. Through the SDK's own client against
`pandora serve` over stdio."""

from __future__ import annotations

import ast
import json
import re
import sqlite3
from typing import Any

import anyio
import pytest

from tests.fake_openai import fake_openai_server
from tests.mcp_server.conftest import (
    EXAMPLES,
    REPOSITORY,
    connect,
    error_text,
    server_environment,
    structured,
)
from tests.mcp_server.test_ask import REPLY

pytestmark = pytest.mark.slow


def albums() -> int:
    with sqlite3.connect(EXAMPLES / "music.sqlite") as connection:
        return connection.execute("SELECT COUNT(*) FROM album").fetchone()[0]


def test_a_lone_name_is_read_as_a_one_item_list() -> None:
    async def scenario() -> None:
        async with connect("stdio") as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            for tool in tools.values():
                for name in ("sources", "entities"):
                    schema = tool.input_schema["properties"].get(name)
                    if schema is not None:
                        types = [option.get("type") for option in schema.get("anyOf", [schema])]
                        assert "array" in types, (tool.name, name)
            pandas_run = await client.call_tool(
                "run_pandas", {"code": "result = len(album)", "sources": "music"}
            )
            assert structured(pandas_run)["rows"] == [[albums()]]
            sql_run = await client.call_tool(
                "run_sql", {"query": "SELECT COUNT(*) FROM album", "sources": "music"}
            )
            assert structured(sql_run)["rows"] == [[albums()]]
            graph = await client.call_tool(
                "describe_source",
                {"source": "films", "representation": "networkx", "entities": "Alfred Hitchcock"},
            )
            assert "Alfred Hitchcock" in structured(graph)["schema_text"]
            graph_run = await client.call_tool(
                "run_networkx",
                {
                    "code": "result = graph.has_node('Alfred Hitchcock')",
                    "sources": "films",
                    "entities": "Alfred Hitchcock",
                },
            )
            assert structured(graph_run)["rows"] == [[True]]

    anyio.run(scenario)


def test_lists_announce_what_loading_added() -> None:
    heard: list[str] = []

    async def listen(message: Any) -> None:
        heard.append(type(message).__name__)

    async def scenario() -> tuple[Any, set[str], set[str], set[str]]:
        async with connect("stdio", message_handler=listen, mode="legacy") as client:
            capabilities = client.server_capabilities
            first = {str(resource.uri) for resource in (await client.list_resources()).resources}
            await client.call_tool("list_sources", {})
            with anyio.fail_after(30):
                while "ResourceListChangedNotification" not in heard:
                    await anyio.sleep(0.1)
            later = {str(resource.uri) for resource in (await client.list_resources()).resources}
            tools = (await client.list_tools()).tools
            describe = next(tool for tool in tools if tool.name == "describe_source")
            return (
                capabilities,
                first,
                later,
                set(describe.input_schema["properties"]["representation"]["enum"]),
            )

    capabilities, first, later, representations = anyio.run(scenario)
    assert capabilities.resources.list_changed is True
    assert capabilities.tools.list_changed is True
    assert "pandora://sources/music/schema/sql" not in first  # answered before loading
    assert "pandora://sources/music/schema/sql" in later
    assert "ToolListChangedNotification" in heard
    assert representations == {"networkx", "pandas", "sql"}


def example_call(tool: str, description: str) -> dict[str, Any]:
    """The keyword arguments of the `Example: tool(...)` in `description`,
    read as Python (so an example that is not valid code fails here)."""
    start = description.index(f"Example: {tool}(") + len("Example: ")
    text = description[start:]
    for end in (match.end() for match in re.finditer(r"\)", text)):
        try:
            call = ast.parse(text[:end], mode="eval").body
        except SyntaxError:
            continue
        assert isinstance(call, ast.Call) and call.func.id == tool
        return {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
    raise AssertionError(f"{tool}: its example is not a valid call: {text!r}")


def test_every_description_example_runs_as_written() -> None:
    with fake_openai_server(lambda messages: json.dumps(REPLY)) as llm:
        environment = server_environment(
            OPENAI_BASE_URL=llm.base_url, OPENAI_API_KEY="test-key", PANDORA_MODEL="scripted"
        )

        async def scenario() -> dict[str, Any]:
            results = {}
            async with connect("stdio", environment=environment) as client:
                for tool in (await client.list_tools()).tools:
                    arguments = example_call(tool.name, tool.description or "")
                    results[tool.name] = await client.call_tool(tool.name, arguments)
            return results

        results = anyio.run(scenario)
    assert len(results) == 9
    for name, result in results.items():
        assert not result.is_error, (name, result.content[0].text)
    assert structured(results["run_networkx"])["rows"]  # Hitchcock's films, not an empty graph


def test_schemas_state_limits_and_choices() -> None:
    async def scenario() -> dict[str, Any]:
        async with connect("stdio") as client:
            await client.call_tool("list_sources", {})  # the plugins are imported from here on
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    schemas = anyio.run(scenario)
    assert schemas["preview_box"]["properties"]["rows"]["maximum"] == 50
    representation = schemas["describe_source"]["properties"]["representation"]
    assert representation["enum"] == ["networkx", "pandas", "sql"]
    run_sql_sources = schemas["run_sql"]["properties"]["sources"]["description"]
    assert "the one loaded database" in run_sql_sources
    graph_sources = schemas["run_networkx"]["properties"]["sources"]["description"]
    assert "every loaded knowledge graph" in graph_sources
    assert "Default" not in schemas["add_demonstration"]["properties"]["sources"]["description"]


def test_errors_read_plainly() -> None:
    async def scenario() -> dict[str, str]:
        async with connect("stdio") as client:
            calls = {
                "sql_parse": ("run_sql", {"query": "SELEC genre FROM album"}),
                "unknown_entity": (
                    "describe_source",
                    {"source": "films", "representation": "networkx", "entities": ["Nobody Known"]},
                ),
                "too_many_rows": ("preview_box", {"source": "music", "box": "album", "rows": 500}),
                "missing_code": ("run_pandas", {}),
                "graph_code_on_a_database": (
                    "run_networkx",
                    {"code": "result = 1", "sources": ["music"]},
                ),
                "sql_on_a_graph": ("run_sql", {"query": "SELECT 1", "sources": ["films"]}),
                "unknown_representation": (
                    "describe_source",
                    {"source": "music", "representation": "cobol"},
                ),
            }
            return {
                key: error_text(await client.call_tool(name, arguments))
                for key, (name, arguments) in calls.items()
            }

    messages = anyio.run(scenario)
    for message in messages.values():
        assert "x1b" not in message and "\x1b" not in message
        assert str(REPOSITORY) not in message
        assert "pydantic" not in message and "\n" not in message
    assert "FROM" in messages["sql_parse"]
    assert "source 'films'" in messages["unknown_entity"]
    assert "`rows`" in messages["too_many_rows"] and "50" in messages["too_many_rows"]
    assert "`code` is required" in messages["missing_code"]
    assert "cannot show 'music'" in messages["graph_code_on_a_database"]
    assert "films is a knowledge graph: pass `entities`" in messages["sql_on_a_graph"]
    assert "networkx, pandas, sql" in messages["unknown_representation"]
