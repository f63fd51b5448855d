"""Display names of a subgraph's entities, relations and types.

Entities are shown by label (rdfs:label, skos:prefLabel, schema:name; the
preferred language first), else by IRI local name. Names are unique within a
subgraph: two entities labelled "Paris" become "Paris (Q90)" and
"Paris (Q830149)". Blank nodes (mediator nodes without an IRI) get a
stable, readable id from their type and a hash of their outgoing edges, so
the same file gives the same name on every load. Relations and types are
shown in snake_case (`directed_by`, `award_win`), the form BOX fields and
NetworkX relations take.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from pyoxigraph import BlankNode, Literal, NamedNode

from plugins.knowledge_graph.graph import KnowledgeGraph, Node
from plugins.knowledge_graph.terms import local_name
from plugins.knowledge_graph.text import snake_case
from plugins.knowledge_graph.vocabulary import LABEL_PREDICATES

UNTYPED = "entity"
_BLANK_NODE_EDGES_READ = 10_000


@dataclass(frozen=True)
class Names:
    """What a subgraph's nodes and predicates are called when shown."""

    entities: dict[Node, str]
    relations: dict[NamedNode, str]
    types: dict[Node, tuple[str, ...]]


def name_subgraph(
    kg: KnowledgeGraph, entities: Collection[Node], relations: Collection[NamedNode]
) -> Names:
    """Unique display names for `entities`, snake_case names for `relations`,
    and the snake_case type names of each entity (empty when untyped)."""
    type_nodes = kg.types(entities)
    all_types = sorted({t for types in type_nodes.values() for t in types}, key=_sort_key)
    labels = kg.labels([*entities, *relations, *all_types])
    type_names = _unique(
        {t: snake_case(_label_or_local_name(t, labels, kg.languages)) or UNTYPED for t in all_types}
    )
    entity_types = {
        node: tuple(sorted({type_names[t] for t in type_nodes.get(node, [])})) for node in entities
    }
    blank_ids = _blank_node_ids(kg, [n for n in entities if isinstance(n, BlankNode)], entity_types)
    bases = {
        node: blank_ids[node]
        if isinstance(node, BlankNode)
        else _label_or_local_name(node, labels, kg.languages)
        for node in entities
    }
    relation_names = _unique(
        {
            r: snake_case(_label_or_local_name(r, labels, kg.languages)) or "related_to"
            for r in relations
        }
    )
    return Names(_disambiguate(bases), relation_names, entity_types)


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


def _unique(names: dict[NamedNode, str] | dict[Node, str]) -> dict:
    """Suffix `_2`, `_3`... onto names two terms share (in term order)."""
    result = {}
    used: set[str] = set()
    for term in sorted(names, key=_sort_key):
        name = names[term]
        candidate, counter = name, 2
        while candidate in used:
            candidate = f"{name}_{counter}"
            counter += 1
        used.add(candidate)
        result[term] = candidate
    return result


def _sort_key(term: Node) -> tuple[str, str]:
    return (term.value, str(term))
