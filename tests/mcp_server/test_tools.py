"""The MCP tools, resources and prompt through the SDK's own client, against
`pandora serve` as a real subprocess, over stdio and over streamable HTTP.

Answers are checked against sqlite3 and rdflib computed here, on the same files.
"""

from __future__ import annotations

import json
import sqlite3

import anyio
import pytest
import rdflib

from tests.mcp_server.conftest import EXAMPLES, connect, error_text, structured

pytestmark = [pytest.mark.slow, pytest.mark.parametrize("transport", ["stdio", "http"])]

TOOLS = {
    "list_sources",
    "describe_source",
    "preview_box",
    "run_pandas",
    "run_networkx",
    "run_sql",
    "search_demonstrations",
    "add_demonstration",
    "ask",
}
HITCHCOCK_FILMS = """\
PREFIX ex: <http://example.org/films/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
SELECT ?label WHERE {
  ?film ex:directedBy ?director . ?director rdfs:label "Alfred Hitchcock"@en .
  ?film rdfs:label ?label . FILTER(langMatches(lang(?label), "en"))
}"""


def sqlite_rows(query: str) -> list[tuple]:
    """Rows of `query` on the bundled music database, computed by sqlite3 itself."""
    with sqlite3.connect(EXAMPLES / "music.sqlite") as connection:
        return connection.execute(query).fetchall()


def as_tuples(rows: list[list]) -> list[tuple]:
    return sorted(tuple(row) for row in rows)


def test_tools_are_listed_with_input_and_output_schemas(transport: str) -> None:
    async def scenario() -> None:
        async with connect(transport) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert set(tools) == TOOLS
            for tool in tools.values():
                assert tool.input_schema["type"] == "object"
                assert tool.output_schema is not None, tool.name
                assert "Example" in (tool.description or ""), tool.name
                writes = tool.name == "add_demonstration"
                assert tool.annotations.read_only_hint is not writes, tool.name
            assert tools["run_pandas"].input_schema["required"] == ["code"]
            assert "rows" in tools["run_sql"].output_schema["properties"]
            prompts = (await client.list_prompts()).prompts
            assert [prompt.name for prompt in prompts] == ["pandora_reasoning"]

    anyio.run(scenario)


def test_describe_each_bundled_source(transport: str) -> None:
    async def scenario() -> None:
        async with connect(transport) as client:
            listed = structured(await client.call_tool("list_sources", {}))
            kinds = {source["name"]: source["kind"] for source in listed["sources"]}
            assert kinds == {"music": "database", "cities": "table", "films": "kg"}

            music = structured(await client.call_tool("describe_source", {"source": "music"}))
            tables = {row[0] for row in sqlite_rows("SELECT name FROM sqlite_master")}
            assert set(music["boxes"]) == tables | {"purchase_details"}  # its joined view
            assert "album = pd.DataFrame(" in music["schema_text"]

            ddl = structured(
                await client.call_tool(
                    "describe_source", {"source": "music", "representation": "sql"}
                )
            )
            assert "CREATE TABLE album" in ddl["schema_text"]

            cities = structured(await client.call_tool("describe_source", {"source": "cities"}))
            assert cities["boxes"] == ["cities"]
            assert "'Population (2020)'" in cities["schema_text"]

            films = structured(
                await client.call_tool(
                    "describe_source",
                    {
                        "source": "films",
                        "representation": "networkx",
                        "entities": ["Alfred Hitchcock"],
                    },
                )
            )
            assert 'graph.add_node("Alfred Hitchcock"' in films["schema_text"]
            no_focus = await client.call_tool("describe_source", {"source": "films"})
            assert "entities" in error_text(no_focus)

    anyio.run(scenario)


def test_pandas_sql_and_networkx_answers_equal_sqlite_and_rdflib(transport: str) -> None:
    genre_counts = as_tuples(sqlite_rows("SELECT genre, COUNT(*) FROM album GROUP BY genre"))
    graph = rdflib.Graph().parse(EXAMPLES / "films.ttl")
    hitchcock = sorted(str(row.label) for row in graph.query(HITCHCOCK_FILMS))

    async def scenario() -> None:
        async with connect(transport) as client:
            pandas_run = structured(
                await client.call_tool(
                    "run_pandas",
                    {"code": "result = album.groupby('genre').size()", "sources": ["music"]},
                )
            )
            assert as_tuples(pandas_run["rows"]) == genre_counts
            assert pandas_run["columns"][0] == "genre"
            assert pandas_run["total_rows"] == len(genre_counts)

            sql_run = structured(
                await client.call_tool(
                    "run_sql", {"query": "SELECT genre, COUNT(*) FROM album GROUP BY genre"}
                )
            )
            assert as_tuples(sql_run["rows"]) == genre_counts

            graph_run = structured(
                await client.call_tool(
                    "run_networkx",
                    {
                        "entities": ["Alfred Hitchcock"],
                        "code": (EXAMPLES / "programs" / "hitchcock_films.py").read_text(),
                    },
                )
            )
            assert [row[0] for row in graph_run["rows"]] == hitchcock

            graph_sql = structured(
                await client.call_tool(
                    "run_sql",
                    {
                        "sources": ["films"],
                        "entities": ["Alfred Hitchcock"],
                        "query": "SELECT film FROM film WHERE directed_by = 'Alfred Hitchcock' "
                        "ORDER BY film",
                    },
                )
            )
            assert [row[0] for row in graph_sql["rows"]] == sorted(hitchcock)

            preview = structured(
                await client.call_tool(
                    "preview_box", {"source": "music", "box": "album", "rows": 3}
                )
            )
            titles = [row[0] for row in sqlite_rows("SELECT title FROM album LIMIT 3")]
            assert [row[preview["columns"].index("title")] for row in preview["rows"]] == titles
            assert preview["total_rows"] == sqlite_rows("SELECT COUNT(*) FROM album")[0][0]

    anyio.run(scenario)


def test_a_failing_program_is_a_tool_error_and_the_session_goes_on(transport: str) -> None:
    async def scenario() -> None:
        async with connect(transport) as client:
            failed = await client.call_tool(
                "run_pandas", {"code": "count = 1\nresult = albums.size", "sources": ["music"]}
            )
            message = error_text(failed)
            assert "NameError (line 2): name 'albums' is not defined" in message
            assert "Did you mean the BOX 'album'?" in message  # the agent's execution guidance

            refused = await client.call_tool("run_sql", {"query": "DELETE FROM album"})
            assert "DELETE" in error_text(refused) or "read-only" in error_text(refused)

            escape = await client.call_tool(
                "run_pandas", {"code": "import os\nresult = os.listdir('/')"}
            )
            assert "os" in error_text(escape)

            unknown = await client.call_tool("describe_source", {"source": "nowhere"})
            assert "music" in error_text(unknown)  # names the sources that exist

            after = structured(
                await client.call_tool(
                    "run_pandas", {"code": "print('checking')\nresult = len(album)"}
                )
            )
            assert after["rows"] == [[sqlite_rows("SELECT COUNT(*) FROM album")[0][0]]]
            assert after["stdout"] == "checking\n"  # captured: never on the protocol's stdout

    anyio.run(scenario)


def test_results_are_capped_with_the_total_row_count(transport: str) -> None:
    async def scenario() -> None:
        async with connect(transport) as client:
            big = structured(
                await client.call_tool(
                    "run_pandas", {"code": "result = list(range(5000))", "sources": ["music"]}
                )
            )
            assert big["truncated"] is True
            assert big["total_rows"] == 5000
            assert len(big["rows"]) == 100  # the default max_rows
            wide = structured(
                await client.call_tool(
                    "run_pandas", {"code": "result = ['x' * 100_000] * 3", "sources": ["music"]}
                )
            )
            assert wide["truncated"] is True
            assert len(json.dumps(wide["rows"])) <= 20_000 + 100

    anyio.run(scenario)


def test_add_then_search_a_demonstration(transport: str) -> None:
    question = "How many albums of the Rock genre does the shop sell?"
    code = "result = len(album[album['genre'] == 'Rock'])"
    expected = sqlite_rows("SELECT COUNT(*) FROM album WHERE genre = 'Rock'")

    async def scenario() -> None:
        async with connect(transport) as client:
            added = structured(
                await client.call_tool(
                    "add_demonstration",
                    {
                        "question": question,
                        "code": code,
                        "sources": ["music"],
                        "reasoning": "filter the Rock albums and count them",
                        "expected_answer": [list(row) for row in expected],
                    },
                )
            )
            assert added["verified"] == "executed"  # a client's answer proves no more
            assert added["added"] is True
            found = structured(
                await client.call_tool("search_demonstrations", {"question": question, "k": 3})
            )
            best = found["demonstrations"][0]
            assert (best["id"], best["code"]) == (added["id"], code)

            wrong = await client.call_tool(
                "add_demonstration",
                {
                    "question": "How many albums are there?",
                    "code": "result = len(album)",
                    "sources": ["music"],
                    "expected_answer": [[12345]],
                },
            )
            assert "not stored" in error_text(wrong)

    anyio.run(scenario)


def test_twenty_concurrent_calls_are_all_answered(transport: str) -> None:
    answers: dict[int, list] = {}

    async def scenario() -> None:
        async with connect(transport) as client:

            async def one(number: int) -> None:
                result = await client.call_tool(
                    "run_pandas", {"code": f"result = len(album) * {number}", "sources": ["music"]}
                )
                answers[number] = structured(result)["rows"]

            async with anyio.create_task_group() as group:
                for number in range(20):
                    group.start_soon(one, number)

    anyio.run(scenario)
    albums = sqlite_rows("SELECT COUNT(*) FROM album")[0][0]
    assert answers == {number: [[albums * number]] for number in range(20)}


def test_resources_and_the_reasoning_prompt(transport: str) -> None:
    async def scenario() -> None:
        async with connect(transport) as client:
            await client.call_tool("list_sources", {})  # the sources are loaded from here on
            listed = json.loads((await client.read_resource("pandora://sources")).contents[0].text)
            assert {source["name"] for source in listed["sources"]} == {"music", "cities", "films"}

            uris = {str(resource.uri) for resource in (await client.list_resources()).resources}
            for source in ("music", "cities"):
                for representation in ("pandas", "sql"):
                    assert f"pandora://sources/{source}/schema/{representation}" in uris
            ddl = await client.read_resource("pandora://sources/music/schema/sql")
            assert "CREATE TABLE artist" in ddl.contents[0].text
            graph = await client.read_resource(
                "pandora://sources/films/schema/networkx?entities=Alfred%20Hitchcock"
            )
            assert "Alfred Hitchcock" in graph.contents[0].text

            prompt = await client.get_prompt(
                "pandora_reasoning",
                {"question": "Which genre has the most albums?", "sources": "music"},
            )
            text = prompt.messages[0].content.text
            assert "album = pd.DataFrame(" in text  # the schema
            assert "Question: " in text  # at least one retrieved demonstration
            assert text.rstrip().endswith("Which genre has the most albums?")

    anyio.run(scenario)
