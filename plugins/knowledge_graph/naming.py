"""Display names of a knowledge graph's entities, relations, types and fields.

Entities are shown by label (rdfs:label, skos:prefLabel, schema:name, then
the KG's own name properties; the preferred language first), else by IRI
local name. Names are unique within a subgraph: two entities labelled
"Paris" become "Paris (Q90)" and "Paris (Q830149)". Blank nodes (mediator
nodes without an IRI) get a stable, readable id from their type and a hash
of their outgoing edges, so the same file gives the same name on every load.

Types, relations and BOX fields are named from the whole KG's schema, never
from the subgraph at hand: a type is named after its label or local name
(snake_case), a relation likewise, unique over the KG; a BOX field is
unique among the predicates the type's instances use anywhere in the KG.
When two predicates would take the same name, both are qualified by the IRI
segment before their local name (`country#name` and `city#name` as relations
are `country_name` and `city_name`; in the `country` BOX, where only
`country#name` is a field, it is plain `name`). So a program that reads
`country.name` works at every hop count.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from pyoxigraph import BlankNode, Literal, NamedNode

from plugins.knowledge_graph.graph import KnowledgeGraph, Node, Triple
from plugins.knowledge_graph.schema import Schema, SubjectType, schema_of_triples
from plugins.knowledge_graph.terms import local_name
from plugins.knowledge_graph.text import snake_case
from plugins.knowledge_graph.vocabulary import LABEL_PREDICATES
from plugins.names import make_identifier

UNTYPED = "entity"
UNNAMED_RELATION = "related_to"
_BLANK_NODE_EDGES_READ = 10_000


@dataclass(frozen=True)
class SchemaNames:
    """The names a KG's schema gives: BOX names per class, relation names per
    predicate (unique over the KG), field names per (type, predicate), and
    the BOX names of multi-valued (type, predicate)s (`film_starring`),
    unique among all BOX names."""

    types: dict[Node, str]
    relations: dict[NamedNode, str]
    fields: dict[tuple[SubjectType, NamedNode], str]
    links: dict[tuple[SubjectType, NamedNode], str]

    def box_name(self, kind: SubjectType) -> str:
        """The BOX name of a class, `entity` for untyped subjects."""
        return UNTYPED if kind is None else self.types[kind]


@dataclass(frozen=True)
class Names:
    """What a subgraph's nodes and predicates are called when shown.

    `types` maps each entity to its BOX names; `fields` maps a (BOX name,
    predicate) pair to the BOX field the predicate fills; `links` maps the
    multi-valued ones to the name of the BOX that holds their values."""

    entities: dict[Node, str]
    relations: dict[NamedNode, str]
    types: dict[Node, tuple[str, ...]]
    fields: dict[tuple[str, NamedNode], str]
    links: dict[tuple[str, NamedNode], str]


_SCHEMA_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def name_schema(kg: KnowledgeGraph, schema: Schema) -> SchemaNames:
    """Names for every class, predicate and (type, predicate) field of `schema`."""
    classes = sorted(schema.type_counts, key=_sort_key)
    predicates = sorted(schema.predicate_counts, key=_sort_key)
    labels = kg.labels([*classes, *predicates])

    def base(term: Node, fallback: str) -> str:
        return make_identifier(
            snake_case(_label_or_local_name(term, labels, kg.languages)), fallback=fallback
        )

    types = _distinct({kind: base(kind, UNTYPED) for kind in classes}, {UNTYPED})
    relation_bases = {predicate: base(predicate, UNNAMED_RELATION) for predicate in predicates}
    relations = _distinct(relation_bases, set())
    fields: dict[tuple[SubjectType, NamedNode], str] = {}
    for kind, kind_predicates in schema.predicates_by_type.items():
        box = UNTYPED if kind is None else types[kind]
        named = _distinct({p: relation_bases[p] for p in kind_predicates}, {box})
        fields.update({(kind, predicate): name for predicate, name in named.items()})
    return SchemaNames(types, relations, fields, _link_names(schema, types, fields))


def _link_names(
    schema: Schema,
    types: dict[Node, str],
    fields: dict[tuple[SubjectType, NamedNode], str],
) -> dict[tuple[SubjectType, NamedNode], str]:
    """`<type>_<field>` for each multi-valued (type, predicate) (the field
    alone when it starts with `<type>_`, as Freebase names do), a counter
    added where that name is taken by a type or an earlier link."""
    taken = {UNTYPED, *types.values()}
    links = {}
    pairs = [(kind, p) for kind, predicates in schema.multi_valued.items() for p in predicates]
    for kind, predicate in sorted(pairs, key=lambda pair: (types.get(pair[0], ""), pair[1].value)):
        box = UNTYPED if kind is None else types[kind]
        field_name = fields[(kind, predicate)]
        joined = field_name if field_name.startswith(f"{box}_") else f"{box}_{field_name}"
        base = make_identifier(joined, fallback=box)
        candidate, counter = base, 2
        while candidate in taken:
            candidate, counter = f"{base}_{counter}", counter + 1
        taken.add(candidate)
        links[(kind, predicate)] = candidate
    return links


def kg_schema_names(kg: KnowledgeGraph) -> SchemaNames:
    """The schema names of a KG that can be scanned whole, computed once."""
    if kg not in _SCHEMA_NAMES:
        _SCHEMA_NAMES[kg] = name_schema(kg, kg.schema())
    return _SCHEMA_NAMES[kg]


def name_subgraph(
    kg: KnowledgeGraph,
    entities: Collection[Node],
    triples: Collection[Triple],
    attributes: Collection[Triple] = (),
) -> Names:
    """Unique display names for `entities`, and the schema's names for the
    relations, types and fields of the subgraph `triples` form (the
    `attributes` of its edge entities are BOX fields, not relations).

    A KG that can be scanned whole is named by its whole schema; on an
    endpoint the schema is that of the subgraph (a documented limit)."""
    type_nodes = kg.types(entities)
    if kg.whole_schema_is_cheap:
        schema_names = kg_schema_names(kg)
    else:
        schema_names = name_schema(kg, schema_of_triples([*triples, *attributes], type_nodes))
    entity_types = {
        node: tuple(sorted({schema_names.types[t] for t in type_nodes.get(node, [])}))
        for node in entities
    }
    relations = {predicate for _, predicate, _ in triples}
    present = relations | {predicate for _, predicate, _ in attributes}
    fields = {
        (schema_names.box_name(kind), predicate): name
        for (kind, predicate), name in schema_names.fields.items()
        if predicate in present
    }
    links = {
        (schema_names.box_name(kind), predicate): name
        for (kind, predicate), name in schema_names.links.items()
        if predicate in present
    }
    labels = kg.labels(entities)
    blank_ids = _blank_node_ids(kg, [n for n in entities if isinstance(n, BlankNode)], entity_types)
    bases = {
        node: blank_ids[node]
        if isinstance(node, BlankNode)
        else _label_or_local_name(node, labels, kg.languages)
        for node in entities
    }
    return Names(
        _disambiguate(bases),
        {predicate: schema_names.relations[predicate] for predicate in relations},
        entity_types,
        fields,
        links,
    )


def choose_label(
    pairs: Iterable[tuple[NamedNode, Literal]], languages: tuple[str, ...]
) -> str | None:
    """The best label among (predicate, label) pairs: a preferred language
    first (in order), then untagged, then any other; rdfs:label before
    skos:prefLabel before schema:name; then alphabetical, for determinism."""

    def rank(pair: tuple[NamedNode, Literal]) -> tuple[int, str, int, str]:
        predicate, label = pair
        language = label.language or ""
        if language in languages:
            language_rank = languages.index(language)
        else:
            language_rank = len(languages) + (1 if language else 0)
        predicate_rank = LABEL_PREDICATES.index(predicate) if predicate in LABEL_PREDICATES else 99
        return (language_rank, language, predicate_rank, label.value)

    ranked = sorted(pairs, key=rank)
    return ranked[0][1].value if ranked else None


def _label_or_local_name(
    node: Node, labels: dict[Node, list[tuple[NamedNode, Literal]]], languages: tuple[str, ...]
) -> str:
    return choose_label(labels.get(node, []), languages) or local_name(node)


def _blank_node_ids(
    kg: KnowledgeGraph, blank_nodes: list[BlankNode], entity_types: dict[Node, tuple[str, ...]]
) -> dict[Node, str]:
    """`award_win 3f2a1c`: the type and a hash of the node's outgoing edges
    (blank objects hashed as `_:`), stable across loads of the same data."""
    lines: dict[Node, list[str]] = {node: [] for node in blank_nodes}
    for subject, predicate, obj in kg.edges(blank_nodes, None, _BLANK_NODE_EDGES_READ):
        if subject in lines:
            shown = "_:" if isinstance(obj, BlankNode) else str(obj)
            lines[subject].append(f"{predicate} {shown}")
    ids = {}
    for node, node_lines in lines.items():
        digest = hashlib.sha1("\n".join(sorted(node_lines)).encode()).hexdigest()[:6]
        kind = entity_types[node][0] if entity_types.get(node) else UNTYPED
        ids[node] = f"{kind} {digest}"
    return ids


def _disambiguate(bases: dict[Node, str]) -> dict[Node, str]:
    """Make names unique: clashing ones get their local name in brackets,
    and a counter if even that clashes."""
    holders: dict[str, list[Node]] = {}
    for node in sorted(bases, key=_sort_key):
        holders.setdefault(bases[node], []).append(node)
    names: dict[Node, str] = {}
    taken: set[str] = {name for name, nodes in holders.items() if len(nodes) == 1}
    for name, nodes in holders.items():
        if len(nodes) == 1:
            names[nodes[0]] = name
            continue
        for node in nodes:
            candidate = f"{name} ({local_name(node)})"
            counter = 2
            while candidate in taken:
                candidate = f"{name} ({local_name(node)} #{counter})"
                counter += 1
            taken.add(candidate)
            names[node] = candidate
    return names


def _distinct(bases: dict, reserved: set[str]) -> dict:
    """Make names unique and different from `reserved`: terms sharing a base
    name are qualified by the IRI segment before their local name
    (`country_name`); a counter settles what still clashes (in term order)."""
    holders: dict[str, list] = {}
    for term in sorted(bases, key=_sort_key):
        holders.setdefault(bases[term], []).append(term)
    names = {}
    used = set(reserved)
    clashing = []
    for name, terms in holders.items():
        if len(terms) == 1 and name not in reserved:
            names[terms[0]] = name
            used.add(name)
        else:
            clashing.extend(terms)
    for term in sorted(clashing, key=_sort_key):
        base = make_identifier(f"{_qualifier(term)}_{bases[term]}", fallback=bases[term])
        candidate, counter = base, 2
        while candidate in used:
            candidate = f"{base}_{counter}"
            counter += 1
        used.add(candidate)
        names[term] = candidate
    return names


def _qualifier(term: Node) -> str:
    """The IRI segment before the local name: `country` for `.../country#name`."""
    if not isinstance(term, NamedNode):
        return ""
    iri = term.value
    cut = max(iri.rfind("#"), iri.rfind("/"), iri.rfind(":"))
    return snake_case(local_name(NamedNode(iri[:cut]))) if cut > 0 else ""


def _sort_key(term: Node) -> tuple[str, str]:
    return (term.value, str(term))
