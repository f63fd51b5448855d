"""The `pandora_reasoning` prompt: Pandora's code-driven reasoning prompt for
one question, with the schema and the retrieved demonstrations filled in, so
an assistant can use the method with its own model (and run the code it gets
with run_pandas, run_sql or run_networkx)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.prompts.base import UserMessage

from mcp_server.calls import focus_for, loaded_state

if TYPE_CHECKING:
    from plugins import SourceKind

DEFAULT_DEMONSTRATIONS = 3


def register_prompts(server: MCPServer) -> None:
    """Add `pandora_reasoning` to `server`."""
    server.prompt(name="pandora_reasoning", title="Pandora code-driven reasoning")(
        pandora_reasoning
    )


async def pandora_reasoning(
    question: str,
    ctx: Context,
    sources: str = "",
    representation: str = "pandas",
    entities: str = "",
    hops: int = 2,
    demonstrations: int = DEFAULT_DEMONSTRATIONS,
) -> list[UserMessage]:
    """Pandora's prompt for answering `question` by writing code: the instruction, the
    schema of `sources` (comma-separated names; default every table and database) in
    `representation` (pandas, sql or networkx), the most similar verified demonstrations,
    then the question. Knowledge graphs need `entities` (comma-separated)."""
    from agent.prompts import reasoning_messages
    from memory import search_demonstrations

    state = await loaded_state(ctx)
    names = _names(sources)
    workspace = state.catalog.workspace(names or None, default_kinds=_default_kinds(representation))
    focus = focus_for(workspace, _names(entities), hops, question)
    store = await anyio.to_thread.run_sync(state.store)
    search = functools.partial(
        search_demonstrations, store, question, demonstrations, representation=representation
    )
    hits = await anyio.to_thread.run_sync(search) if demonstrations > 0 else []
    build = functools.partial(
        reasoning_messages, question, workspace, representation, hits, focus=focus
    )
    messages = await anyio.to_thread.run_sync(build)
    # MCP prompts carry user and assistant messages only: the instruction
    # (a system message for Pandora's own agent) opens the user's text.
    return [UserMessage("\n\n".join(message["content"] for message in messages))]


def _default_kinds(representation: str) -> tuple[SourceKind, ...]:
    """The kinds of source the prompt shows when none are named: every table
    and database the representation shows; its knowledge graphs only when it
    shows nothing else (a graph is shown around a focus, never whole)."""
    from plugins import get_registry

    kinds = get_registry().representation(representation).kinds
    return tuple(kind for kind in kinds if kind != "kg") or kinds


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]
