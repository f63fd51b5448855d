"""The tools: see the sources, run code on them, learn from demonstrations.

Each tool's docstring is its description, written for the LLM that decides
when to call it: what it does, when to use it, what comes back, an example.
"""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ImageContent, TextContent, ToolAnnotations

from mcp_server.calls import add_tool, focus_for, loaded_state
from mcp_server.caps import cap_rows
from mcp_server.execution import run_program
from mcp_server.memory_tools import add_demonstration, search_demonstrations
from mcp_server.models import BoxPreview, RunResult, SourceInfo, SourceList, SourceSchema
from mcp_server.parameters import (
    Code,
    Entities,
    FocusQuestion,
    GraphSourceNames,
    Hops,
    PreviewRows,
    Representation,
    SourceName,
    SqlSourceNames,
    TableSourceNames,
)
from mcp_server.schemas import check_shows, source_info
from plugins.errors import BadInputError

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


async def list_sources(ctx: Context) -> SourceList:
    """List the data sources this server can answer questions about.

    Call it first. Each source has a `name` (use it in every other tool), a `kind`
    (table, database or kg), the `representations` its schema can be shown in, and
    `needs_focus` for knowledge graphs (those need `entities` or `question`).
    Example: list_sources(), which returns {"sources": [{"name": "music", "kind": "database",
    ...}], "loading": false}.
    """
    state = await loaded_state(ctx)
    infos: list[SourceInfo] = [source_info(entry) for entry in state.catalog.entries]
    return SourceList(sources=infos, loading=not state.catalog.loaded.is_set())


async def describe_source(
    source: SourceName,
    ctx: Context,
    representation: Representation = "pandas",
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: Hops = 2,
    question: FocusQuestion = None,
) -> SourceSchema:
    """Show the schema of one source, as the code you write will see it.

    Use it before writing code. 'pandas' shows each table as
    `name = pd.DataFrame({...})` with column dtypes (the BOXes your pandas code
    gets as variables); 'sql' shows CREATE TABLE statements; 'networkx' shows a
    knowledge graph's subgraph around `entities` as NetworkX code. No values are
    shown: call preview_box for example rows.
    Example: describe_source(source="music", representation="sql").
    """
    state = await loaded_state(ctx)
    workspace = state.catalog.workspace([source])
    check_shows(workspace, representation)
    focus = focus_for(workspace, entities, hops, question)
    return await state.schemas.get(workspace, representation, focus)


async def preview_box(
    source: SourceName,
    box: str,
    ctx: Context,
    rows: PreviewRows = 5,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: Hops = 2,
    question: FocusQuestion = None,
) -> BoxPreview:
    """Show the first rows of one BOX (a table as a DataFrame) with its columns.

    Use it to see how values look (spelling, units, date formats) before filtering
    on them. `box` is a BOX name from describe_source; `rows` is at most 50.
    Returns columns, rows of JSON values and `total_rows`.
    Example: preview_box(source="music", box="album", rows=3).
    """
    from plugins.descriptions import first_rows
    from plugins.pandas_box import workspace_boxes

    state = await loaded_state(ctx)
    workspace = state.catalog.workspace([source])
    focus = focus_for(workspace, entities, hops, question)
    boxes = await anyio.to_thread.run_sync(workspace_boxes, workspace, focus)
    chosen = next((candidate for candidate in boxes if candidate.name == box), None)
    if chosen is None:
        known = ", ".join(candidate.name for candidate in boxes) or "none"
        raise BadInputError(f"source {source!r} has no BOX named {box!r}; its BOXes: {known}")
    capped = cap_rows(first_rows(chosen.frame, rows), rows, state.settings.max_chars)
    return BoxPreview(
        source=source,
        box=box,
        columns=[str(column) for column in chosen.frame.columns],
        rows=capped.rows,
        total_rows=len(chosen.frame),
        truncated=capped.truncated,
    )


async def run_pandas(
    code: Code,
    ctx: Context,
    sources: TableSourceNames = None,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: Hops = 2,
    question: FocusQuestion = None,
) -> RunResult:
    """Run pandas code on the BOXes of the sources, in a sandbox, and return its result.

    Every BOX is a variable of its name (see describe_source), with `pd` and `np`.
    The code must assign `result` (a DataFrame, Series, list or value). No files,
    no network, no imports beyond pandas/numpy/math/re/datetime-like modules.
    Returns `columns`, `rows` (JSON values), `total_rows` and `truncated`. A failing
    program returns an error with the exception and its line: fix it and call again.
    A program that draws (`album.plot.bar(...)`, matplotlib's pyplot) also returns
    the figure as a PNG image.
    Example: run_pandas(code="result = album.groupby('genre').size()", sources=["music"]).
    """
    state = await loaded_state(ctx)
    workspace = state.catalog.workspace(sources)
    focus = focus_for(workspace, entities, hops, question)
    charts: list[str] = []
    result = await run_program(state, code, workspace, "pandas", focus, on_chart=charts.append)
    if not charts:
        return result
    return CallToolResult(  # type: ignore[return-value] - the same structured RunResult, and the image
        content=[
            TextContent(type="text", text=result.model_dump_json(indent=2)),
            ImageContent(type="image", data=charts[0], mime_type="image/png"),
        ],
        structured_content=result.model_dump(mode="json"),
    )


async def run_networkx(
    code: Code,
    ctx: Context,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    sources: GraphSourceNames = None,
    hops: Hops = 2,
    question: FocusQuestion = None,
) -> RunResult:
    """Run NetworkX code on a knowledge graph's subgraph around `entities`, in a sandbox.

    The code sees `graph` (an nx.MultiDiGraph: nodes are names with a `types` list,
    edges carry `relation`), `nx` and `question`. Define `KGQA(question, graph)`
    returning the answer, or assign `result`. See the subgraph first with
    describe_source(representation="networkx", entities=[...]).
    Returns `columns`, `rows`, `total_rows`; a failing program returns its error and line.
    Example: run_networkx(entities=["Alfred Hitchcock"], code="result = sorted(h for h, t, r "
    "in graph.in_edges('Alfred Hitchcock', data='relation') if r == 'directed_by')").
    """
    state = await loaded_state(ctx)
    workspace = state.catalog.workspace(sources, default_kinds=("kg",))
    focus = focus_for(workspace, entities, hops, question)
    return await run_program(state, code, workspace, "networkx", focus)


async def run_sql(
    query: Code,
    ctx: Context,
    sources: SqlSourceNames = None,
    entities: Entities = [],  # noqa: B006 - pydantic copies defaults
    hops: Hops = 2,
    question: FocusQuestion = None,
) -> RunResult:
    """Run one read-only SQL query on a database (or on flat tables and knowledge graphs
    loaded as one), in a sandbox.

    `sources` defaults to the one loaded database, or to every table when none is loaded.
    A knowledge graph's tables are the BOXes of the subgraph around `entities` (or those
    of `question`): one table per type, see describe_source(representation="sql",
    entities=[...]). Quote names with spaces in double quotes. Only one SELECT (or WITH
    ... SELECT) is allowed: anything that writes is refused. Returns `columns`, `rows`,
    `total_rows`, `truncated`; an invalid query returns the database's error.
    Example: run_sql(query="SELECT genre, COUNT(*) AS albums FROM album GROUP BY genre",
    sources=["music"]).
    """
    state = await loaded_state(ctx)
    workspace = state.catalog.sql_workspace(sources)
    focus = focus_for(workspace, entities, hops, question)
    return await run_program(state, query, workspace, "sql", focus)


def register_tools(server: MCPServer) -> None:
    """Add every tool but `ask` to `server`, with its annotations."""
    read_only_tools = [
        list_sources,
        describe_source,
        preview_box,
        run_pandas,
        run_networkx,
        run_sql,
        search_demonstrations,
    ]
    for tool in read_only_tools:
        add_tool(server, tool, READ_ONLY)
    add_tool(
        server,
        add_demonstration,
        ToolAnnotations(
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )
