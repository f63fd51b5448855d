"""What a source looks like to a user or an assistant: pydantic models for the
CLI's `inspect --json` and the MCP server's `describe_source`."""

from __future__ import annotations

from typing import Any

import pandas as pd
from pydantic import BaseModel

from plugins.model import Box, Source


class FieldDescription(BaseModel):
    """One field of a BOX and its pandas dtype."""

    name: str
    dtype: str


class ForeignKeyDescription(BaseModel):
    """`field` of the BOX refers to `ref_field` of BOX `ref_box`."""

    field: str
    ref_box: str
    ref_field: str


class BoxDescription(BaseModel):
    """A BOX: its name, the source it comes from, exact row count, fields, keys,
    and first rows on request."""

    name: str
    origin: str
    rows: int
    fields: list[FieldDescription]
    foreign_keys: list[ForeignKeyDescription]
    values: list[list[Any]] | None = None


class SourceSummary(BaseModel):
    """Which source, of which kind, opened by which loader."""

    name: str
    kind: str
    plugin: str


class SourceDescription(BaseModel):
    """A source and its BOXes."""

    source: SourceSummary
    boxes: list[BoxDescription]


class WorkspaceDescription(BaseModel):
    """Several sources and their BOXes (names unique across them), as
    `pandora inspect --json` prints them."""

    sources: list[SourceSummary]
    boxes: list[BoxDescription]


def describe_box(box: Box, values: int = 0) -> BoxDescription:
    """The description of one BOX, with its first `values` rows when asked."""
    return BoxDescription(
        name=box.name,
        origin=box.origin,
        rows=len(box.frame),
        fields=[FieldDescription(name=f.name, dtype=f.dtype) for f in box.fields],
        foreign_keys=[
            ForeignKeyDescription(field=k.field, ref_box=k.ref_box, ref_field=k.ref_field)
            for k in box.foreign_keys
        ],
        values=first_rows(box.frame, values) if values else None,
    )


def describe_source(source: Source, boxes: list[Box], values: int = 0) -> SourceDescription:
    """The description of a source and its BOXes."""
    return SourceDescription(
        source=summarise_source(source), boxes=[describe_box(box, values) for box in boxes]
    )


def describe_workspace(
    sources: list[Source], boxes: list[Box], values: int = 0
) -> WorkspaceDescription:
    """The description of several sources and their BOXes."""
    return WorkspaceDescription(
        sources=[summarise_source(source) for source in sources],
        boxes=[describe_box(box, values) for box in boxes],
    )


def summarise_source(source: Source) -> SourceSummary:
    """Which source, of which kind, opened by which loader."""
    return SourceSummary(name=source.name, kind=source.kind, plugin=source.plugin)


def first_rows(frame: pd.DataFrame, count: int) -> list[list[Any]]:
    """The first `count` rows as JSON values, by the rules every result follows
    (`plugins.executor.results.json_cell`: missing and NaN as null, dates as ISO text)."""
    from plugins.executor.results import json_cell

    rows = frame.head(count).itertuples(index=False)
    return [[json_cell(value) for value in row] for row in rows]
