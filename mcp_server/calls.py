"""What every tool call does first: find the server state, wait for the
sources, and turn Pandora's errors into tool errors the client's LLM can read."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations

from mcp_server.state import ServerState
from plugins.errors import BadInputError, PandoraError

if TYPE_CHECKING:
    from plugins import Focus, Workspace

Parameters = ParamSpec("Parameters")
Returned = TypeVar("Returned")


def state_of(context: Context) -> ServerState:
    """The server state of the lifespan this call runs in."""
    return context.request_context.lifespan_context


async def loaded_state(context: Context) -> ServerState:
    """The server state once its sources are loaded; a client that asked for
    progress hears which source is loading while it waits."""
    state = state_of(context)
    if not state.catalog.loaded.is_set():
        await state.catalog.wait_until_loaded(context.report_progress)
    return state


def reported_as_tool_errors(
    tool: Callable[Parameters, Awaitable[Returned]],
) -> Callable[Parameters, Awaitable[Returned]]:
    """Make Pandora's own errors (bad input, a failed program, a busy server)
    tool errors with their message, rather than the SDK's generic crash text."""

    @functools.wraps(tool)
    async def wrapper(*args: Parameters.args, **kwargs: Parameters.kwargs) -> Returned:
        try:
            return await tool(*args, **kwargs)
        except PandoraError as error:
            raise ToolError(str(error)) from error

    return wrapper


def focus_for(
    workspace: Workspace, entities: list[str], hops: int, question: str | None
) -> Focus | None:
    """The focus of a call on `workspace`: needed as soon as a knowledge graph is in it."""
    has_graph = any(source.kind == "kg" for source in workspace.sources)
    if not has_graph:
        return None
    if not entities and not question:
        graphs = ", ".join(s.name for s in workspace.sources if s.kind == "kg")
        raise BadInputError(
            f"{graphs} is a knowledge graph: pass `entities` (e.g. ['Alfred Hitchcock']) or "
            "`question` to choose the subgraph"
        )
    from plugins import Focus

    return Focus(question=question, entities=tuple(entities), hops=hops)


def add_tool(server: MCPServer, tool: Callable[..., Any], annotations: ToolAnnotations) -> None:
    """Add `tool` to `server`: its docstring (dedented) is its description, and
    Pandora's errors are reported as tool errors."""
    server.add_tool(
        reported_as_tool_errors(tool),
        description=inspect.cleandoc(tool.__doc__ or ""),
        annotations=annotations,
    )
