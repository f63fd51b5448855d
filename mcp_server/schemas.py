"""What a source looks like to a client: its summary and its schema text in
each representation (shared by the tools and the resources)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

import anyio

from mcp_server.catalog import CatalogEntry
from mcp_server.models import SourceInfo, SourceSchema
from plugins.errors import BadInputError

if TYPE_CHECKING:
    from plugins import Focus, Source, Workspace


def representations_of(source: Source) -> list[str]:
    """The names of the representations that can show `source`."""
    from plugins import get_registry

    registry = get_registry()
    return sorted(
        name
        for name, representation in registry.representations.items()
        if source.kind in representation.kinds
    )


def source_info(entry: CatalogEntry) -> SourceInfo:
    """The summary of one configured source, loaded or not."""
    source = entry.source
    return SourceInfo(
        name=entry.name,
        kind=source.kind if source else None,
        plugin=source.plugin if source else None,
        status=entry.status,
        error=entry.error,
        representations=representations_of(source) if source else [],
        needs_focus=bool(source and source.kind == "kg"),
    )


def check_shows(workspace: Workspace, representation: str) -> None:
    """Refuse a workspace with a source `representation` cannot show or run on
    (SQL on a knowledge graph, NetworkX on a table), naming the ones that can."""
    from plugins import get_registry

    kinds = get_registry().representation(representation).kinds
    for source in workspace.sources:
        if source.kind not in kinds:
            shown = ", ".join(representations_of(source))
            raise BadInputError(
                f"the {representation} representation cannot show {source.name!r} "
                f"(a {source.kind}); use one of: {shown}"
            )


def source_schema(workspace: Workspace, representation: str, focus: Focus | None) -> SourceSchema:
    """The schema text of the one source of `workspace` in `representation`
    (and the names of the BOXes its code sees, for a representation that shows
    BOXes, as pandas does: the text has their fields, row counts and keys)."""
    from plugins import get_registry

    source = workspace.sources[0]
    check_shows(workspace, representation)
    chosen = get_registry().representation(representation)
    boxes = chosen.boxes(workspace, focus)
    return SourceSchema(
        source=source.name,
        kind=source.kind,
        representation=representation,
        schema_text=chosen.render_schema(workspace, focus),
        boxes=[box.name for box in boxes],
    )


class SchemaCache:
    """Schemas already built, by source, representation and focus: the sources
    are loaded once and never change while the server runs, so a schema is
    built once (in a thread) and then answered from memory."""

    def __init__(self, size: int = 256):
        self.size = size
        self._entries: OrderedDict[tuple[str, str, Focus | None], SourceSchema] = OrderedDict()
        self._lock = threading.Lock()

    async def get(
        self, workspace: Workspace, representation: str, focus: Focus | None
    ) -> SourceSchema:
        """The schema of the one source of `workspace` (see `source_schema`)."""
        key = (workspace.sources[0].name, representation, focus)
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
                return self._entries[key]
        described = await anyio.to_thread.run_sync(source_schema, workspace, representation, focus)
        with self._lock:
            self._entries[key] = described
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return described
