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
from typing import Any

import pandas as pd
from pyoxigraph import Literal, NamedNode

from plugins.knowledge_graph.graph import Node, Term
from plugins.knowledge_graph.naming import UNTYPED, Names
from plugins.knowledge_graph.subgraph import Subgraph, focus_subgraph_or_whole_graph
from plugins.knowledge_graph.terms import is_node, literal_value
from plugins.model import Box, Focus, ForeignKey, Source


def kg_to_boxes(source: Source, focus: Focus) -> list[Box]:
    """The BOXes of the subgraph of KG `source` that `focus` selects (of the
    whole of a small KG when the question names no entity)."""
    return subgraph_to_boxes(focus_subgraph_or_whole_graph(source.handle, focus), source.name)


def subgraph_to_boxes(subgraph: Subgraph, origin: str) -> list[Box]:
    """One BOX per entity type of `subgraph`, one row per entity, and one BOX
    per multi-valued relation, with foreign keys between them."""
    outgoing: dict[Node, dict[NamedNode, list[Term]]] = {}
    for subject, predicate, obj in (*subgraph.triples, *subgraph.attributes):
        values = outgoing.setdefault(subject, {}).setdefault(predicate, [])
        if obj not in values:
            values.append(obj)
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
        single = [r for r in relations if (box_name, r) not in names.links]
        columns = [box_name, *(names.fields[(box_name, r)] for r in single)]
        rows = [
            [names.entities[entity]]
            + [_first_shown(outgoing.get(entity, {}).get(r, []), names.entities) for r in single]
            for entity in entities
        ]
        boxes.append(Box(box_name, _frame(columns, rows), origin))
        entity_sets[(box_name, box_name)] = set(entities)
        for relation, column in zip(single, columns[1:], strict=True):
            entity_sets[(box_name, column)] = _reached(entities, relation, outgoing)
        for relation in relations:
            if (box_name, relation) in names.links:
                link = _link_box(box_name, relation, entities, outgoing, names, origin)
                boxes.append(link)
                entity_sets[(link.name, box_name)] = set(entities)
                field_name = names.fields[(box_name, relation)]
                entity_sets[(link.name, field_name)] = _reached(entities, relation, outgoing)
    boxes.sort(key=lambda box: box.name)
    _add_foreign_keys(boxes, entity_sets, {box_name for box_name in members})
    return boxes


def _link_box(
    box_name: str,
    relation: NamedNode,
    entities: list[Node],
    outgoing: dict[Node, dict[NamedNode, list[Term]]],
    names: Names,
    origin: str,
) -> Box:
    """The BOX of a multi-valued relation: one row per (entity, value), the
    values of each entity sorted."""
    rows = [
        [names.entities[entity], value]
        for entity in entities
        for value in sorted(
            (_shown(v, names.entities) for v in outgoing.get(entity, {}).get(relation, [])),
            key=str,
        )
    ]
    columns = [box_name, names.fields[(box_name, relation)]]
    return Box(names.links[(box_name, relation)], _frame(columns, rows), origin)


def _frame(columns: list[str], rows: list[list[Any]]) -> pd.DataFrame:
    return pd.DataFrame(
        {column: _typed_column([row[i] for row in rows]) for i, column in enumerate(columns)},
        columns=columns,
    )


def _reached(
    entities: list[Node], relation: NamedNode, outgoing: dict[Node, dict[NamedNode, list[Term]]]
) -> set[Node]:
    return {
        obj
        for entity in entities
        for obj in outgoing.get(entity, {}).get(relation, [])
        if is_node(obj)
    }


def _first_shown(values: list[Term], entity_names: dict[Node, str]) -> Any:
    """The value of a single-valued relation (None when the entity lacks it).
    On an endpoint a relation is single-valued by the subgraph's evidence, so
    a second value cannot be hidden here: the schema saw it."""
    return _shown(values[0], entity_names) if values else None


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


def _add_foreign_keys(
    boxes: list[Box], entity_sets: dict[tuple[str, str], set[Node]], type_boxes: set[str]
) -> None:
    """Relation field -> type field of every type BOX sharing an entity with
    it; type field <-> type field of type BOXes that share entities; the
    entity field of a multi-valued relation's BOX -> its type BOX."""
    type_fields = [(box.name, box.name) for box in boxes if box.name in type_boxes]
    for box in boxes:
        for column in map(str, box.frame.columns):
            own = entity_sets[(box.name, column)]
            is_type_field = box.name in type_boxes and column == box.name
            for ref_box, ref_field in type_fields:
                if is_type_field and ref_box == box.name:
                    continue
                if own & entity_sets[(ref_box, ref_field)]:
                    box.foreign_keys.append(ForeignKey(column, ref_box, ref_field))
