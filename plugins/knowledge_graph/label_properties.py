"""Label predicates a KG brings itself, for KGs without rdfs:label.

Graphs converted from relational databases (Spider4SPARQL's
`<table>#name`) name their entities with ordinary data properties. For each
type whose instances have no standard label, the most name-like data
property (objects all literals) becomes a label predicate, in this order:
`name`, `title`, `label`; `fullname`/`full_name`; `<type>_name` or
`<type>name` (also for the type's singular, `contestants` ->
`contestant_name`); a property named like its type (`course#course`);
else the one property ending in `name` or `title` when there is exactly
one (`first_name` beside `last_name` names nobody alone).
`PANDORA_KG_LABEL_PREDICATES` (comma-separated IRIs) replaces detection.
"""

from __future__ import annotations

from pyoxigraph import NamedNode

from plugins.knowledge_graph.schema import Schema, SubjectType
from plugins.knowledge_graph.terms import local_name
from plugins.knowledge_graph.text import snake_case

_EXACT_NAMES = ("name", "title", "label", "fullname", "full_name")
_NAME_ENDINGS = ("name", "title")


def detect_label_predicates(schema: Schema) -> tuple[NamedNode, ...]:
    """The name-like data property of every unlabelled type that has one,
    without repeats, in IRI order."""
    found = {
        predicate
        for kind, properties in schema.data_properties.items()
        if kind not in schema.labelled_types
        and (predicate := _name_property(kind, properties)) is not None
    }
    return tuple(sorted(found, key=lambda predicate: predicate.value))


def _name_property(kind: SubjectType, properties: frozenset[NamedNode]) -> NamedNode | None:
    by_name: dict[str, list[NamedNode]] = {}
    for predicate in sorted(properties, key=lambda predicate: predicate.value):
        by_name.setdefault(snake_case(local_name(predicate)), []).append(predicate)
    for name in (*_EXACT_NAMES, *_own_name_forms(kind)):
        if name in by_name:
            return by_name[name][0]
    endings = [
        predicates[0]
        for name, predicates in by_name.items()
        if name.replace("_", "").endswith(_NAME_ENDINGS)
    ]
    return endings[0] if len(endings) == 1 else None


def _own_name_forms(kind: SubjectType) -> list[str]:
    """`concert_name`, `concertname`, then `concert` for type `concert` (and
    the same for its singular)."""
    if kind is None:
        return []
    type_name = snake_case(local_name(kind))
    stems = [type_name] + ([type_name[:-1]] if type_name.endswith("s") else [])
    suffixed = [
        form
        for stem in stems
        for ending in _NAME_ENDINGS
        for form in (f"{stem}_{ending}", f"{stem.replace('_', '')}{ending}")
    ]
    return suffixed + stems
