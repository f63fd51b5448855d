"""What a source looks like to a client: its summary and its schema text in
each representation (shared by the tools and the resources)."""

from __future__ import annotations

from mcp_server.catalog import CatalogEntry
from mcp_server.models import SourceInfo, SourceSchema
from plugins import Focus, Source, Workspace, get_registry
from plugins.descriptions import describe_box
from plugins.errors import BadInputError
from plugins.pandas_box import workspace_boxes


def representations_of(source: Source) -> list[str]:
    """The names of the representations that can show `source`."""
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


def source_schema(workspace: Workspace, representation: str, focus: Focus | None) -> SourceSchema:
    """The schema text of the one source of `workspace` in `representation`
    (and its BOXes, for the pandas representation)."""
    source = workspace.sources[0]
    chosen = get_registry().representation(representation)
    if source.kind not in chosen.kinds:
        shown = ", ".join(representations_of(source))
        raise BadInputError(
            f"the {representation} representation cannot show {source.name!r} "
            f"(a {source.kind}); use one of: {shown}"
        )
    boxes = workspace_boxes(workspace, focus) if representation == "pandas" else []
    return SourceSchema(
        source=source.name,
        kind=source.kind,
        representation=representation,
        schema_text=chosen.render_schema(workspace, focus),
        boxes=[describe_box(box) for box in boxes],
    )
