"""What a knowledge graph holds, for `inspect` without a focus.

Lists the KG's types with their instance counts, a few example entities
each (by display name, the names `--entities` accepts) and the fields of
their BOXes, and its predicates with their triple counts (by relation name,
as the NetworkX representation shows them). Type names are the BOX names KG-to-BOX gives, so
the overview tells the user which BOXes a question can reach.
"""

from __future__ import annotations

from pydantic import BaseModel

from plugins.errors import BadInputError
from plugins.knowledge_graph.naming import name_schema, name_subgraph
from plugins.model import Source


class TypeOverview(BaseModel):
    """One class: its BOX name, IRI, number of instances, a few of them, and
    the fields its BOX can have (after the type field, in BOX order)."""

    name: str
    iri: str
    count: int
    examples: list[str]
    fields: list[str]


class PredicateOverview(BaseModel):
    """One predicate: its relation name, IRI and number of triples."""

    name: str
    iri: str
    count: int


class KnowledgeGraphOverview(BaseModel):
    """A KG's types (most instances first) and predicates (most used first)."""

    source: str
    location: str
    triples: int
    types: list[TypeOverview]
    predicates: list[PredicateOverview]


def describe_knowledge_graph(source: Source, examples_per_type: int = 3) -> KnowledgeGraphOverview:
    """The overview of KG `source`: every type with its count and up to
    `examples_per_type` entity names, and every predicate with its count.

    On an endpoint this runs aggregate queries over all its triples, which
    a large public endpoint may refuse (a one-line error then)."""
    if source.kind != "kg":
        raise BadInputError(f"{source.location}: not a knowledge graph")
    if examples_per_type < 0:
        raise BadInputError(f"examples per type must be 0 or more, got {examples_per_type}")
    kg = source.handle
    schema = kg.schema()
    names = name_schema(kg, schema)
    kinds = sorted(schema.type_counts, key=lambda kind: (-schema.type_counts[kind], kind.value))
    examples = {kind: kg.instances(kind, examples_per_type) for kind in kinds}
    shown = name_subgraph(kg, [node for nodes in examples.values() for node in nodes], ())
    types = [
        TypeOverview(
            name=names.types[kind],
            iri=kind.value,
            count=schema.type_counts[kind],
            examples=[shown.entities[node] for node in examples[kind]],
            fields=sorted(name for (owner, _), name in names.fields.items() if owner == kind),
        )
        for kind in kinds
    ]
    predicates = [
        PredicateOverview(name=names.relations[predicate], iri=predicate.value, count=count)
        for predicate, count in sorted(
            schema.predicate_counts.items(), key=lambda item: (-item[1], item[0].value)
        )
    ]
    return KnowledgeGraphOverview(
        source=source.name,
        location=source.location,
        triples=sum(schema.predicate_counts.values()),
        types=types,
        predicates=predicates,
    )
