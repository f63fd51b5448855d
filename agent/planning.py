"""What the plan node decides: the representation, the KG focus and the
schema the prompt shows."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
import sqlalchemy

from agent.schema_linking import SchemaItem, keep_blocks, link_schema
from memory.settings import MemorySettings
from plugins import Box, Focus, Workspace, get_registry
from plugins.errors import BadInputError
from plugins.loaders.cell_types import is_text
from plugins.model import Source

SHARED_VALUES_SAMPLE = 2000
SHARED_VALUES_MIN = 2


def choose_representation(
    workspace: Workspace, requested: str | None, sql_row_threshold: int
) -> tuple[str, str]:
    """The representation for a question on `workspace` and why it was chosen.

    pandas by default; networkx or sql when asked (refused when the sources
    cannot be shown that way); sql when a database holds more rows than
    `sql_row_threshold`, so its own engine answers instead of loading BOXes.
    """
    kinds = {source.kind for source in workspace.sources}
    if requested is not None:
        representation = get_registry().representation(requested)
        if not kinds & set(representation.kinds):
            raise BadInputError(
                f"the {requested} representation shows {' or '.join(representation.kinds)} "
                f"sources; these are {', '.join(sorted(kinds))}"
            )
        if requested == "sql" and "kg" in kinds:
            raise BadInputError("SQL does not run on knowledge graphs; use pandas or networkx")
        return requested, "asked for"
    if "kg" not in kinds:
        for source in workspace.sources:
            rows = database_rows(workspace, source)
            if rows > sql_row_threshold:
                return "sql", f"{source.name} holds {rows} rows (> {sql_row_threshold})"
    return "pandas", "default"


def database_rows(workspace: Workspace, source: Source) -> int:
    """Rows of every table of a database source (0 for other kinds), counted by
    the database itself and cached in the workspace."""
    if source.kind != "database":
        return 0
    key = ("agent_rows", source.name)
    if key not in workspace.cache:
        database = source.handle
        preparer = database.engine.dialect.identifier_preparer
        with database.engine.connect() as connection:
            workspace.cache[key] = sum(
                connection.execute(
                    sqlalchemy.text(f"SELECT COUNT(*) FROM {preparer.quote(table.name)}")
                ).scalar_one()
                for table in database.tables
            )
    return workspace.cache[key]


def dialect_of(workspace: Workspace) -> str:
    """The SQL dialect a query over `workspace` runs in."""
    from plugins.sql_schema.targets import workspace_sql_target

    return workspace_sql_target(workspace).dialect


def kg_focus(
    workspace: Workspace, question: str, entities: Sequence[str], hops: int
) -> Focus | None:
    """The focus of a question on a workspace with a KG (None without one):
    the given entities, else those linked in the question."""
    if not any(source.kind == "kg" for source in workspace.sources):
        return None
    return Focus(question=question, entities=tuple(entities), hops=hops)


def topic_entity_names(workspace: Workspace, focus: Focus) -> list[str]:
    """The names of the KG entities the focus resolved to (its topic entities)."""
    from plugins.networkx_kg import workspace_subgraphs

    return [
        subgraph.names.entities[node]
        for subgraph in workspace_subgraphs(workspace, focus)
        for node in subgraph.topic_entities
    ]


@dataclass(frozen=True)
class PromptSchema:
    """The schema of a question: the full structure-only text (the program
    cache's key), the text the prompt shows, and the BOXes schema linking kept."""

    full_text: str
    shown_text: str
    linked: list[str] | None


def prompt_schema(
    workspace: Workspace,
    representation: str,
    focus: Focus | None,
    question: str,
    linking_min_items: int,
    linking_keep: int,
) -> PromptSchema:
    """Render the schema; cut it to the relevant BOXes when it has more than
    `linking_min_items`; note the fields of different sources that share values."""
    full_text = get_registry().representation(representation).render_schema(workspace, focus)
    items = schema_items(workspace, representation, focus)
    linked = None
    shown_text = full_text
    if len(items) > linking_min_items:
        linked = link_schema(question, items, linking_keep, MemorySettings.from_env().embedding)
        shown_text = keep_blocks(full_text, linked)
    if representation == "pandas" and len(workspace.sources) > 1:
        notes = shared_value_notes(_boxes(workspace, focus), linked)
        if notes:
            shown_text += "\n\n" + "\n".join(notes)
    return PromptSchema(full_text, shown_text, linked)


def schema_items(
    workspace: Workspace, representation: str, focus: Focus | None
) -> list[SchemaItem]:
    """The BOXes or tables of `workspace` as schema linking sees them (none for
    networkx: its subgraph is already cut to the question)."""
    if representation == "pandas":
        return [
            SchemaItem(
                box.name,
                tuple(str(column) for column in box.frame.columns),
                tuple(key.ref_box for key in box.foreign_keys),
            )
            for box in _boxes(workspace, focus)
        ]
    if representation == "sql":
        from plugins.sql_schema.targets import DatabaseTarget, workspace_sql_target

        target = workspace_sql_target(workspace)
        if isinstance(target, DatabaseTarget):
            return [
                SchemaItem(
                    table.name,
                    tuple(column.name for column in table.columns),
                    tuple(key.ref_table for key in table.foreign_keys),
                )
                for table in target.database.tables
            ]
        return [
            SchemaItem(name, tuple(map(str, frame.columns)), ())
            for name, frame in target.tables.items()
        ]
    return []


def shared_value_notes(boxes: list[Box], shown: list[str] | None) -> list[str]:
    """One comment per pair of text fields of different sources that share
    values (at least two), so a program knows how to join across sources."""
    fields = [
        (box, str(column), _text_values(box.frame[column]))
        for box in boxes
        if shown is None or box.name in shown
        for column in box.frame.columns
        if is_text(box.frame[column])
    ]
    notes = []
    for (box, column, values), (other, other_column, other_values) in itertools.combinations(
        fields, 2
    ):
        if box.origin == other.origin:
            continue
        shared = values.keys() & other_values.keys()
        if len(shared) >= SHARED_VALUES_MIN:
            example = values[sorted(shared)[0]]
            notes.append(
                f"# shared values: {box.name}[{column!r}] and {other.name}[{other_column!r}] "
                f"({len(shared)} in common, e.g. {example!r}); join with "
                f"{box.name}.merge({other.name}, left_on={column!r}, right_on={other_column!r})"
            )
    return notes


def _boxes(workspace: Workspace, focus: Focus | None) -> list[Box]:
    from plugins.pandas_box import workspace_boxes

    return workspace_boxes(workspace, focus)


def _text_values(column: pd.Series) -> dict[str, str]:
    """Distinct values of a text column, case-folded, each with one spelling as found."""
    values = column.dropna().astype(str).str.strip().drop_duplicates().head(SHARED_VALUES_SAMPLE)
    return {value.casefold(): value for value in values}
