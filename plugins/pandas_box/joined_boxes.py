"""Joined views as BOXes: a database's foreign-key chains merged into one
DataFrame each (`plugins.joined_views` says which chains and how the fields
are named), beside the BOXes of its tables."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from plugins.joined_views import JoinedView, database_joined_views
from plugins.model import Box, Focus
from plugins.names import make_identifier
from plugins.workspace import Workspace


@dataclass(frozen=True)
class ViewBox:
    """A joined view's BOX and the view, its tables called by their BOX names."""

    box: Box
    view: JoinedView


def workspace_view_boxes(workspace: Workspace, base_boxes: list[Box]) -> list[ViewBox]:
    """The joined views of every database of `workspace` as BOXes, given the
    BOXes of its tables; a view whose name a BOX has gets its source's name
    in front, and is left out when that is taken too."""
    taken = {box.name.casefold() for box in base_boxes}
    view_boxes = []
    for source in workspace.sources:
        if source.kind != "database":
            continue
        own = [box for box in base_boxes if box.origin == source.name]
        box_names = {
            table.name: box.name for table, box in zip(source.handle.tables, own, strict=True)
        }
        frames = {box.name: box.frame for box in own}
        for view in database_joined_views(source.handle):
            name = make_identifier(view.name)
            if name.casefold() in taken:
                name = make_identifier(f"{source.name}_{view.name}")
            if name.casefold() in taken:
                continue
            taken.add(name.casefold())
            boxed = view.renamed(box_names)
            frame = joined_view_frame(boxed, frames)
            view_boxes.append(ViewBox(Box(name, frame, source.name), boxed))
    return view_boxes


def cached_view_boxes(
    workspace: Workspace, focus: Focus | None, base_boxes: list[Box]
) -> list[ViewBox]:
    """`workspace_view_boxes`, built once per workspace and focus."""
    return workspace.derived(
        "pandas_box_views", focus, lambda: workspace_view_boxes(workspace, base_boxes)
    )


def joined_view_frame(view: JoinedView, frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The rows of `view`: its fact table's frame left-merged along its links
    (a missing key matches nothing, as in SQL), with the view's columns."""
    position = {table: index for index, table in enumerate(view.tables)}

    def label(table: str, column: object) -> str:
        return f"{position[table]}:{column}"

    def labelled(table: str) -> pd.DataFrame:
        frame = frames[table]
        return frame.set_axis([label(table, column) for column in frame.columns], axis=1)

    merged = labelled(view.fact_table)
    for link in view.links:
        right = labelled(link.to_box)
        right_key = label(link.to_box, link.to_field)
        merged = merged.merge(
            right[right[right_key].notna()],
            how="left",
            left_on=label(link.from_box, link.from_field),
            right_on=right_key,
            sort=False,
        )
    shown = merged[[label(column.table, column.column) for column in view.columns]]
    return shown.set_axis([column.name for column in view.columns], axis=1).reset_index(drop=True)
