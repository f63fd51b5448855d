"""The resources: the list of sources, and each source's schema in each representation.

`pandora://sources` is the list (JSON). `pandora://sources/{source}/schema/{representation}`
is a template for any source and representation (a knowledge graph takes
`?entities=A,B&hops=2`); once the sources are loaded, every schema that needs
no focus is also listed as a resource of its own, so clients that only browse
lists find them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.mcpserver.resources import FunctionResource

from mcp_server.calls import focus_for, loaded_state
from mcp_server.models import SourceList
from mcp_server.schemas import representations_of, source_info
from mcp_server.state import ServerState
from plugins.errors import PandoraError

if TYPE_CHECKING:
    from plugins import Source

SOURCES_URI = "pandora://sources"
SCHEMA_TEMPLATE = "pandora://sources/{source}/schema/{representation}{?entities,hops}"
JSON = "application/json"
TEXT = "text/plain"


def schema_uri(source: str, representation: str) -> str:
    """The URI of one source's schema in one representation."""
    return f"pandora://sources/{source}/schema/{representation}"


def register_resources(server: MCPServer, state: ServerState) -> None:
    """Add the source list and the schema template to `server`."""

    @server.resource(
        SOURCES_URI,
        name="sources",
        description="Every source this server serves: name, kind, status, representations.",
        mime_type=JSON,
    )
    def sources() -> str:
        infos = [source_info(entry) for entry in state.catalog.entries]
        return SourceList(sources=infos, loading=not state.catalog.loaded.is_set()).model_dump_json(
            indent=2
        )

    @server.resource(
        SCHEMA_TEMPLATE,
        name="source schema",
        description=(
            "One source's schema as code in one representation (pandas, sql, networkx); "
            "a knowledge graph needs ?entities=Name1,Name2."
        ),
        mime_type=TEXT,
    )
    async def schema(
        source: str, representation: str, ctx: Context, entities: str = "", hops: int = 2
    ) -> str:
        return await read_schema(ctx, source, representation, entities, hops)


async def read_schema(
    ctx: Context, source: str, representation: str, entities: str, hops: int
) -> str:
    """The schema text of `source` in `representation`; a resource error when it cannot be shown."""
    state = await loaded_state(ctx)
    try:
        workspace = state.catalog.workspace([source])
        names = [name.strip() for name in entities.split(",") if name.strip()]
        focus = focus_for(workspace, names, hops, None)
        described = await state.schemas.get(workspace, representation, focus)
    except PandoraError as error:
        raise ResourceError(str(error)) from error
    return described.schema_text


def add_schema_resources(server: MCPServer, state: ServerState) -> None:
    """List each loaded source's schema, in each representation that needs no
    focus, as a resource of its own (called once the sources are loaded)."""
    for source in state.catalog.ready_sources():
        if source.kind == "kg":
            continue
        for representation in representations_of(source):
            server.add_resource(_schema_resource(state, source, representation))


def _schema_resource(state: ServerState, source: Source, representation: str) -> FunctionResource:
    async def read() -> str:
        workspace = state.catalog.workspace([source.name])
        try:
            return (await state.schemas.get(workspace, representation, None)).schema_text
        except PandoraError as error:
            raise ResourceError(str(error)) from error

    return FunctionResource.from_function(
        fn=read,
        uri=schema_uri(source.name, representation),
        name=f"{source.name} schema ({representation})",
        description=f"The {representation} schema of {source.kind} {source.name!r}.",
        mime_type=TEXT,
    )
