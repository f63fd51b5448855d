"""`Schema`: what a whole knowledge graph is made of, independent of any subgraph.

Field and BOX names, label predicates and the KG overview are decided from
the schema, so a BOX field is called the same whatever entities a subgraph
happens to hold (`country#name` stays `name` in the `country` BOX whether or
not city names entered the subgraph).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from pyoxigraph import Literal, NamedNode

from plugins.knowledge_graph.graph import Node, Triple
from plugins.knowledge_graph.vocabulary import LABEL_PREDICATES, NAMING_PREDICATES

SubjectType = Node | None
"""A class (the object of rdf:type), or None for subjects without a type."""


@dataclass(frozen=True)
class Schema:
    """Types, predicates and which predicates the instances of each type use.

    `type_counts`: instances per class. `predicate_counts`: triples per
    predicate. `predicates_by_type`: per subject type, the predicates its
    instances have as subject (naming predicates left out: they are names,
    not fields). `data_properties`: per subject type, those of its predicates
    whose objects are all literals. `labelled_types`: the subject types some
    of whose instances have a standard label (rdfs:label, skos:prefLabel...).
    `multi_valued`: per subject type, the predicates some instance has with
    two objects or more (KG-to-BOX gives those a BOX of their own).
    """

    type_counts: dict[Node, int]
    predicate_counts: dict[NamedNode, int]
    predicates_by_type: dict[SubjectType, frozenset[NamedNode]]
    data_properties: dict[SubjectType, frozenset[NamedNode]]
    labelled_types: frozenset[SubjectType]
    multi_valued: dict[SubjectType, frozenset[NamedNode]] = field(default_factory=dict)


def schema_of_triples(triples: Iterable[Triple], types: dict[Node, list[Node]]) -> Schema:
    """The schema of `triples`, given the rdf:type objects of their subjects.

    Used where the whole KG cannot be scanned (an endpoint): there the schema
    is that of the triples seen, and names are only as stable as that."""
    type_counts: dict[Node, int] = {}
    for classes in types.values():
        for kind in classes:
            type_counts[kind] = type_counts.get(kind, 0) + 1
    predicate_counts: dict[NamedNode, int] = {}
    fields: dict[SubjectType, set[NamedNode]] = {}
    with_entity_objects: dict[SubjectType, set[NamedNode]] = {}
    objects: dict[tuple[Node, NamedNode], int] = {}
    labelled: set[SubjectType] = set()
    for subject, predicate, obj in triples:
        predicate_counts[predicate] = predicate_counts.get(predicate, 0) + 1
        if predicate in LABEL_PREDICATES:
            labelled.update(types.get(subject) or [None])
        if predicate in NAMING_PREDICATES:
            continue
        objects[(subject, predicate)] = objects.get((subject, predicate), 0) + 1
        for kind in types.get(subject) or [None]:
            fields.setdefault(kind, set()).add(predicate)
            if not isinstance(obj, Literal):
                with_entity_objects.setdefault(kind, set()).add(predicate)
    return Schema(
        type_counts,
        predicate_counts,
        {kind: frozenset(predicates) for kind, predicates in fields.items()},
        {
            kind: frozenset(predicates - with_entity_objects.get(kind, set()))
            for kind, predicates in fields.items()
        },
        frozenset(labelled),
        _multi_valued(objects, types),
    )


def _multi_valued(
    objects: dict[tuple[Node, NamedNode], int], types: dict[Node, list[Node]]
) -> dict[SubjectType, frozenset[NamedNode]]:
    found: dict[SubjectType, set[NamedNode]] = {}
    for (subject, predicate), count in objects.items():
        if count > 1:
            for kind in types.get(subject) or [None]:
                found.setdefault(kind, set()).add(predicate)
    return {kind: frozenset(predicates) for kind, predicates in found.items()}
