"""KG-to-BOX (Pandora, Algorithm 3): a KG subgraph as one DataFrame per entity type.

Each BOX holds the entities of one type (an entity of several types is in
each type's BOX; untyped entities go to `entity`). Its first field, named
after the type, holds the entities' display names; then one field per
relation those entities have in the subgraph (outgoing edges: every edge of
the subgraph is a row of its subject's BOX), NA where an entity lacks it.
Fields are named from the whole KG's schema (`plugins.knowledge_graph.naming`),
so a field keeps its name whatever the hop count.
A multi-valued relation gives one row per value; an entity with several
multi-valued relations gets one row per combination, as a SPARQL star
pattern would, so that a filter on two fields of one row behaves like a
join. When the combinations of one entity exceed `MAX_ROWS_PER_ENTITY`, its
values are laid out side by side instead (row i holds the i-th value of
each relation), a documented fallback that keeps the BOX bounded.

Literal values keep their datatype: integer fields are `Int64`, decimals
`float64`, booleans `boolean`, dates `datetime64`; a field mixing kinds
holds strings. Foreign keys (Algorithm 3's closing step): a relation field
refers to the first field of every BOX it shares at least one entity with,
and the first fields of two BOXes that share entities refer to each other.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from typing import Any

import pandas as pd
from pyoxigraph import Literal, NamedNode

from plugins.knowledge_graph.graph import Node, Term
from plugins.knowledge_graph.naming import UNTYPED
from plugins.knowledge_graph.subgraph import Subgraph, focus_subgraph_or_whole_graph
from plugins.knowledge_graph.terms import is_node, literal_value
from plugins.model import Box, Focus, ForeignKey, Source

MAX_ROWS_PER_ENTITY = 256


def kg_to_boxes(source: Source, focus: Focus) -> list[Box]:
    """The BOXes of the subgraph of KG `source` that `focus` selects (of the
    whole of a small KG when the question names no entity)."""
    return subgraph_to_boxes(focus_subgraph_or_whole_graph(source.handle, focus), source.name)


def subgraph_to_boxes(subgraph: Subgraph, origin: str) -> list[Box]:
    """One BOX per entity type of `subgraph`, with foreign keys between them."""
    outgoing: dict[Node, dict[NamedNode, list[Term]]] = {}
    for subject, predicate, obj in subgraph.triples:
        outgoing.setdefault(subject, {}).setdefault(predicate, []).append(obj)
    members: dict[str, list[Node]] = {}
    for entity in subgraph.entities:
        for box_name in subgraph.names.types.get(entity) or (UNTYPED,):
            members.setdefault(box_name, []).append(entity)
    names = subgraph.names
    boxes: list[Box] = []
    entity_sets: dict[tuple[str, str], set[Node]] = {}
    for box_name in sorted(members):
        entities = sorted(members[box_name], key=lambda node: names.entities[node])
        relations = sorted(
            {predicate for entity in entities for predicate in outgoing.get(entity, {})},
            key=lambda predicate: names.fields[(box_name, predicate)],
        )
        columns = [box_name, *(names.fields[(box_name, r)] for r in relations)]
        rows: list[list[Any]] = []
        for entity in entities:
            per_relation = [outgoing.get(entity, {}).get(r, []) for r in relations]
            rows.extend(_entity_rows(names.entities[entity], per_relation, names.entities))
        frame = pd.DataFrame(
            {column: _typed_column([row[i] for row in rows]) for i, column in enumerate(columns)},
            columns=columns,
        )
        boxes.append(Box(box_name, frame, origin))
        entity_sets[(box_name, columns[0])] = set(entities)
        for relation, column in zip(relations, columns[1:], strict=True):
            reached = {
                obj for entity in entities for obj in outgoing.get(entity, {}).get(relation, [])
            }
            entity_sets[(box_name, column)] = {obj for obj in reached if is_node(obj)}
    _add_foreign_keys(boxes, entity_sets)
    return boxes


def _entity_rows(
    name: str, per_relation: Sequence[list[Term]], entity_names: dict[Node, str]
) -> list[list[Any]]:
    """The rows of one entity: every combination of its relations' values
    (each relation's values sorted), or the values side by side when the
    combinations would exceed the cap."""
    shown = [
        sorted((_shown(value, entity_names) for value in values), key=str) or [None]
        for values in per_relation
    ]
    combinations = 1
    for values in shown:
        combinations *= len(values)
    if combinations <= MAX_ROWS_PER_ENTITY:
        return [[name, *combination] for combination in itertools.product(*shown)]
    side_by_side = itertools.zip_longest(*[v for v in shown if v != [None]], fillvalue=None)
    columns_with_values = [i for i, values in enumerate(shown) if values != [None]]
    rows = []
    for values in side_by_side:
        row: list[Any] = [name] + [None] * len(shown)
        for index, value in zip(columns_with_values, values, strict=True):
            row[index + 1] = value
        rows.append(row)
    return rows


def _shown(term: Term, entity_names: dict[Node, str]) -> Any:
    if isinstance(term, Literal):
        return literal_value(term)
    return entity_names.get(term, term.value)


def _typed_column(values: list[Any]) -> pd.Series:
    """A column of the values' common type, strings when kinds are mixed."""
    present = [value for value in values if value is not None]
    kinds = {_kind(value) for value in present}
    if kinds == {"bool"}:
        return pd.Series(values, dtype="boolean")
    if kinds == {"int"}:
        return pd.Series(values, dtype="Int64")
    if kinds and kinds <= {"int", "float"}:
        return pd.Series([float("nan") if v is None else float(v) for v in values], dtype="float64")
    if kinds == {"date"}:
        try:
            return pd.Series(pd.to_datetime(values))
        except (ValueError, TypeError, OverflowError):
            pass
    return pd.Series([None if value is None else _as_text(value) for value in values])


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, dt.date):
        return "date"
    return "str"


def _as_text(value: Any) -> str:
    return value.isoformat() if isinstance(value, dt.date) else str(value)


def _add_foreign_keys(boxes: list[Box], entity_sets: dict[tuple[str, str], set[Node]]) -> None:
    """Relation field -> type field of every BOX sharing an entity with it;
    type field <-> type field of BOXes that share entities."""
    type_fields = [(box.name, box.frame.columns[0]) for box in boxes]
    for box in boxes:
        for column in box.frame.columns:
            own = entity_sets[(box.name, column)]
            is_type_field = column == box.frame.columns[0]
            for ref_box, ref_field in type_fields:
                if is_type_field and ref_box == box.name:
                    continue
                if own & entity_sets[(ref_box, ref_field)]:
                    box.foreign_keys.append(ForeignKey(column, ref_box, ref_field))
