"""`build_server`: Pandora's MCP server for one configuration."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version

import anyio
from mcp.server.mcpserver import MCPServer

from mcp_server.ask_tool import register_ask
from mcp_server.config import ServerConfig
from mcp_server.prompts import register_prompts
from mcp_server.resources import add_schema_resources, register_resources
from mcp_server.state import ServerState
from mcp_server.tools import register_tools

INSTRUCTIONS = """\
Pandora answers questions over tables, databases and knowledge graphs by running code \
on the data, never by guessing. Start with list_sources, then describe_source (the schema \
your code will see), search_demonstrations (worked examples to imitate), then run_pandas, \
run_sql or run_networkx; fix and re-run when a program fails. Or hand the whole question \
to ask. Store code that answered correctly with add_demonstration."""


def build_server(config: ServerConfig) -> MCPServer[ServerState]:
    """A server over the sources of `config`, loaded in its lifespan."""
    state = ServerState.create(config)

    @asynccontextmanager
    async def lifespan(server: MCPServer[ServerState]) -> AsyncIterator[ServerState]:
        async def load_then_warm() -> None:
            await state.catalog.load_all()
            add_schema_resources(server, state)  # before any waiting call resumes
            await anyio.to_thread.run_sync(state.warm_workers)

        async with anyio.create_task_group() as group:
            group.start_soon(load_then_warm)
            try:
                yield state
            finally:
                group.cancel_scope.cancel()

    server: MCPServer[ServerState] = MCPServer(
        "pandora",
        title="Pandora",
        instructions=INSTRUCTIONS,
        version=version("pandora-skr"),
        lifespan=lifespan,
        log_level="WARNING",
    )
    register_tools(server)
    register_ask(server)
    register_resources(server, state)
    register_prompts(server)
    return server
