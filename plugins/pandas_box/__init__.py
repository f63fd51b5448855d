"""The `pandas` representation (Pandora BOX): every table or KG type as a DataFrame.

Table-to-BOX and DB-to-BOX live here (KG-to-BOX in `kg_to_box`); the LLM sees
the BOX schemas as pandas code and writes pandas code that assigns `result`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from plugins.hookspecs import hookimpl
from plugins.model import Box, Focus, SchemaItem, Source
from plugins.pandas_box.joined_boxes import ViewBox, cached_view_boxes
from plugins.pandas_box.prompts import PANDAS_INSTRUCTION
from plugins.pandas_box.render import render_boxes_schema
from plugins.pandas_box.shared_values import shared_value_notes
from plugins.representation_defaults import RepresentationDefaults
from plugins.workspace import Workspace, unique_box_names


def source_boxes(source: Source, focus: Focus | None = None) -> list[Box]:
    """The BOXes of one source (Table-, DB- or KG-to-BOX by its kind).

    A knowledge graph has BOXes only for a focus (its topic entities, or a
    question to find them in): without one it contributes none.
    """
    if source.kind == "table":
        return [Box(name, frame, source.name) for name, frame in source.handle.items()]
    if source.kind == "database":
        from plugins.pandas_box.database_to_box import database_to_boxes  # start-up speed

        return database_to_boxes(source.handle, source.name)
    from plugins.pandas_box.kg_to_box import kg_to_boxes  # start-up speed; before any lockdown

    if focus is None:
        return []  # a KG shows only the subgraph a question focuses on; none asked yet
    return kg_to_boxes(source, focus)


def workspace_boxes(workspace: Workspace, focus: Focus | None = None) -> list[Box]:
    """The BOXes of every source, names unique across the workspace; cached per focus."""
    return workspace.derived(
        "pandas_box",
        focus,
        lambda: unique_box_names(
            {source.name: source_boxes(source, focus) for source in workspace.sources}
        ),
    )


def workspace_view_boxes(workspace: Workspace, focus: Focus | None = None) -> list[ViewBox]:
    """The BOXes of the workspace's joined views (`plugins.joined_views`); cached per focus."""
    return cached_view_boxes(workspace, focus, workspace_boxes(workspace, focus))


def case_spellings(name: str) -> set[str]:
    """The spellings of `name` a model writes for a case-insensitive SQL
    table name: lower case, upper case, capitalised, and each `_`-separated
    word capitalised (`Has_Pet` for `has_pet`, `Owners` for `owners`)."""
    title = "_".join(word[:1].upper() + word[1:].lower() for word in name.split("_"))
    return {name.lower(), name.upper(), name[:1].upper() + name[1:].lower(), title}


def case_aliases(names: list[str]) -> dict[str, str]:
    """Alias -> name for each other-case spelling of a name (`case_spellings`)
    that is not a name itself and is shared with no other name: no guess
    between two."""
    spelled_by: dict[str, set[str]] = {}
    for name in names:
        for spelling in case_spellings(name):
            spelled_by.setdefault(spelling, set()).add(name)
    return {
        alias: next(iter(spellers))
        for alias, spellers in spelled_by.items()
        if len(spellers) == 1 and alias not in names
    }


class PandasBoxRepresentation(RepresentationDefaults):
    """BOX schemas as pandas code; generated pandas code assigns `result`."""

    name = "pandas"
    description = "every table or KG type as a pandas DataFrame (BOX); code assigns `result`"
    kinds = ("table", "database", "kg")
    language = "python"
    schema_heading = "## BOXes"

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        """Every BOX of `workspace` as `name = pd.DataFrame({...})` code, then
        the BOXes of its joined views."""
        views = [
            (joined.box, f"{joined.view.description()}; use it like any BOX")
            for joined in workspace_view_boxes(workspace, focus)
        ]
        return render_boxes_schema(workspace_boxes(workspace, focus), values, views)

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        """Each BOX as a variable of its name (a fresh copy-on-write view), `pd` and `np`.

        A BOX is also reachable by its name in other cases (`case_aliases`)
        when that spelling names nothing else: table names in SQL are
        case-insensitive, and models write `student_enrolment` for the table
        `Student_Enrolment`, or `Owners` for the KG type `owners`.
        """
        variables: dict[str, Any] = {"pd": pd, "np": np}
        boxes = self.boxes(workspace, focus)
        for box in boxes:
            variables[box.name] = box.frame.copy(deep=False)
        for alias, name in case_aliases([box.name for box in boxes]).items():
            variables.setdefault(alias, variables[name])
        return variables

    def instruction(self, workspace: Workspace) -> str:
        """How to write pandas code on the BOXes (the same for every workspace)."""
        return PANDAS_INSTRUCTION

    def demonstration_code(self, code: str) -> str:
        """`code` without its comment lines: the demonstration's reasoning line
        already says the steps, and comments translated from gold SQL
        (`# FROM singer AS T1`) were copied by small models as code lines."""
        return "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))

    def schema_items(self, workspace: Workspace, focus: Focus | None = None) -> list[SchemaItem]:
        """Each BOX with its fields and the BOXes its foreign keys refer to,
        then each joined view's BOX, referring to the BOXes it joins."""
        items = [
            SchemaItem(
                box.name,
                tuple(str(column) for column in box.frame.columns),
                tuple(key.ref_box for key in box.foreign_keys),
            )
            for box in workspace_boxes(workspace, focus)
        ]
        items += [
            SchemaItem(
                joined.box.name,
                tuple(str(column) for column in joined.box.frame.columns),
                joined.view.tables,
                joins=joined.view.tables,
            )
            for joined in workspace_view_boxes(workspace, focus)
        ]
        return items

    def schema_notes(
        self, workspace: Workspace, focus: Focus | None, shown: list[str] | None
    ) -> list[str]:
        """With several sources, the fields of different sources that share
        values: no foreign key says how to join them."""
        if len(workspace.sources) < 2:
            return []
        return shared_value_notes(workspace_boxes(workspace, focus), shown)

    def boxes(self, workspace: Workspace, focus: Focus | None = None) -> list[Box]:
        """Every BOX of `workspace` and of its joined views: the variables
        pandas code sees."""
        views = [joined.box for joined in workspace_view_boxes(workspace, focus)]
        return [*workspace_boxes(workspace, focus), *views]


@hookimpl
def register_representations(register: Callable[..., None]) -> None:
    """The built-in `pandas` representation."""
    register(PandasBoxRepresentation())
