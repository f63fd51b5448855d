"""`build_server`: Pandora's MCP server for one configuration."""

from __future__ import annotations

import copy
import functools
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

import anyio
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as MCPTool
from pydantic import ValidationError

from mcp_server.ask_tool import import_agent, register_ask
from mcp_server.calls import state_of
from mcp_server.config import ServerConfig
from mcp_server.messages import argument_problems, readable
from mcp_server.parameters import registered_representations
from mcp_server.prompts import register_prompts
from mcp_server.resources import add_schema_resources, register_resources
from mcp_server.sessions import SessionWatch
from mcp_server.state import ServerState
from mcp_server.tools import register_tools

INSTRUCTIONS = """\
Pandora answers questions over tables, databases and knowledge graphs by running code \
on the data, never by guessing. Start with list_sources, then describe_source (the schema \
your code will see), search_demonstrations (worked examples to imitate), then run_pandas, \
run_sql or run_networkx; fix and re-run when a program fails. Or hand the whole question \
to ask. Store code that answered correctly with add_demonstration."""
HANDSHAKE_WAIT_SECONDS = 3.0
"""Loading starts after the first handshake, or this long after the start without one."""


class PandoraServer(MCPServer[ServerState]):
    """The SDK's server, with every tool error made readable (`mcp_server.messages`),
    the registered representations as a choice in the schemas once the plugins
    are imported, and lists that announce their changes."""

    def __init__(self, *arguments: Any, **options: Any):
        self.watch = SessionWatch()
        self.representation_names: list[str] = []
        super().__init__(*arguments, middleware=[self.watch], **options)
        announcing = NotificationOptions(tools_changed=True, resources_changed=True)
        lowlevel = self._lowlevel_server
        lowlevel.create_initialization_options = functools.partial(  # type: ignore[method-assign]
            lowlevel.create_initialization_options, announcing
        )

    async def list_tools(self) -> list[MCPTool]:
        """The tools, their `representation` limited to the registered ones once known."""
        tools = await super().list_tools()
        if not self.representation_names:
            return tools
        for tool in tools:
            tool.input_schema = copy.deepcopy(tool.input_schema)
            field = tool.input_schema.get("properties", {}).get("representation")
            if field is not None:
                for option in field.get("anyOf", [field]):
                    if option.get("type") == "string":
                        option["enum"] = self.representation_names
        return tools

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Call the tool; a tool error comes back readable, bad arguments in one sentence."""
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            if isinstance(error.__cause__, ValidationError):
                raise ToolError(argument_problems(name, error.__cause__)) from error.__cause__
            state = None if context is None else state_of(context)
            locations = {} if state is None else state.catalog.names_by_location()
            raise ToolError(readable(str(error), locations)) from error.__cause__


def build_server(config: ServerConfig) -> PandoraServer:
    """A server over the sources of `config`, loaded in its lifespan."""
    state = ServerState.create(config)

    @asynccontextmanager
    async def lifespan(server: PandoraServer) -> AsyncIterator[ServerState]:
        async def load_after_the_handshake() -> None:
            with anyio.move_on_after(HANDSHAKE_WAIT_SECONDS):
                await server.watch.handshake_over.wait()
            server.representation_names = await anyio.to_thread.run_sync(registered_representations)
            await server.watch.announce_changed_lists(tools=True, resources=False)
            await state.catalog.load_all()
            add_schema_resources(server, state)  # before any waiting call resumes
            await server.watch.announce_changed_lists(tools=False, resources=True)
            await anyio.to_thread.run_sync(state.warm_workers)
            await anyio.to_thread.run_sync(import_agent)  # so the first ask does not wait for it

        async with anyio.create_task_group() as group:
            if not state.catalog.loading_started:
                state.catalog.loading_started = True
                group.start_soon(load_after_the_handshake)
            try:
                yield state
            finally:
                group.cancel_scope.cancel()

    server = PandoraServer(
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
