"""The H-hop subgraph around a question's topic entities.

Frontier-based, not path-based: Algorithm 3 of the Pandora paper enumerates
DFS paths from the topic entities, which explodes on hub entities (a path per
neighbour per neighbour...). Here each hop expands the whole frontier at once,
in both directions:

1. count the relations touching the frontier (naming predicates such as
   rdfs:label and rdf:type are not relations: they become names and types);
2. with a question, keep the `max_relations` relations whose names are most
   similar to it (the paper's R*; hashed n-gram embedding), ties by IRI;
3. take their edges in a deterministic order (relation rank, then frontier
   node, then other node, by string value) up to `max_triples_per_hop`;
4. the new frontier is every IRI or blank node reached for the first time,
   so cycles and self-loops end the walk instead of repeating it.

Every entity and edge a DFS path of length <= H would visit is visited, once;
the caps and pruning are applied per hop rather than per path (a documented
deviation, docs/knowledge_graphs.md), which is what keeps a hub to a
bounded, reproducible amount of work.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from pyoxigraph import Literal, NamedNode

from plugins.errors import BadInputError
from plugins.knowledge_graph.embedding import embed, similarity
from plugins.knowledge_graph.entity_linking import (
    NoTopicEntity,
    resolve_entities,
    topic_entities_of_question,
)
from plugins.knowledge_graph.graph import Direction, KnowledgeGraph, Node, RelationKey, Triple
from plugins.knowledge_graph.naming import Names, choose_label, name_subgraph
from plugins.knowledge_graph.terms import is_node, local_name
from plugins.knowledge_graph.vocabulary import NAMING_PREDICATES
from plugins.model import Focus

if TYPE_CHECKING:
    from plugins.workspace import Workspace

MAX_HOPS = 4
WHOLE_GRAPH_MAX_TRIPLES = 20_000
"""The largest in-memory KG a question that names no entity sees whole."""


@dataclass(frozen=True)
class ExtractionLimits:
    """How much of the neighbourhood one question may pull in."""

    max_relations: int = 12
    max_triples_per_hop: int = 400


DEFAULT_LIMITS = ExtractionLimits()


@dataclass(frozen=True)
class Subgraph:
    """The triples around the topic entities, with the names to show them by.

    `truncated` says a hop hit `max_triples_per_hop`; `entities` are the IRIs
    and blank nodes of the subgraph, topic entities first. `attributes` are
    the literal-valued edges of the entities at the edge of the radius (those
    reached in the last hop, whose own edges are one hop further): BOXes
    show them, so that a film reached last still has its runtime.
    """

    topic_entities: tuple[Node, ...]
    triples: tuple[Triple, ...]
    entities: tuple[Node, ...]
    names: Names
    truncated: bool
    attributes: tuple[Triple, ...] = ()

    def topic_entity_names(self) -> list[str]:
        """The display names of the topic entities, in order."""
        return [self.names.entities[node] for node in self.topic_entities]

    def relations(self) -> list[NamedNode]:
        """The predicates of the subgraph, in order of first appearance."""
        return list(dict.fromkeys(predicate for _, predicate, _ in self.triples))


def focus_subgraph(
    kg: KnowledgeGraph, focus: Focus, limits: ExtractionLimits = DEFAULT_LIMITS
) -> Subgraph:
    """The subgraph `focus` asks for: its entities (resolved), else the
    entities linked in its question; cached per (graph, focus, limits)."""
    if not 0 <= focus.hops <= MAX_HOPS:
        raise BadInputError(
            f"{kg.location}: hops must be between 0 and {MAX_HOPS}, got {focus.hops}"
        )
    return _cached_subgraph(kg, focus, limits)


def focus_subgraph_or_whole_graph(kg: KnowledgeGraph, focus: Focus) -> Subgraph:
    """The subgraph of `focus`; when its question names no entity ("How many
    singers are there?", a question about every entity of a type), the whole
    graph if it is in memory and has at most WHOLE_GRAPH_MAX_TRIPLES triples."""
    try:
        return focus_subgraph(kg, focus)
    except NoTopicEntity:
        if not kg.whole_schema_is_cheap:
            raise
        if sum(kg.schema().predicate_counts.values()) > WHOLE_GRAPH_MAX_TRIPLES:
            raise
        return whole_graph(kg)


@lru_cache(maxsize=4)
def whole_graph(kg: KnowledgeGraph) -> Subgraph:
    """Every relation triple touching a typed entity, as a subgraph without
    topic entities (naming predicates become names and types, as in a hop)."""
    schema = kg.schema()
    typed = {
        node: None
        for kind in sorted(schema.type_counts, key=str)
        for node in kg.instances(kind, schema.type_counts[kind])
    }
    triples = tuple(
        dict.fromkeys(
            triple
            for triple in kg.edges(list(typed), None, 2 * WHOLE_GRAPH_MAX_TRIPLES)
            if triple[1] not in NAMING_PREDICATES
        )
    )
    entities = dict(typed)
    for subject, _, obj in triples:
        for end in (subject, obj):
            if is_node(end):
                entities.setdefault(end, None)
    names = name_subgraph(kg, tuple(entities), triples)
    return Subgraph((), triples, tuple(entities), names, truncated=False)


def workspace_topic_entities(workspace: Workspace, focus: Focus) -> list[str]:
    """The names of the entities `focus` resolved to in every KG source of
    `workspace`: the question's topic entities, whichever representation
    shows the graph (none for a question that names no entity)."""
    names = []
    for source in workspace.sources:
        if source.kind == "kg":
            try:
                names += focus_subgraph(source.handle, focus).topic_entity_names()
            except NoTopicEntity:
                continue
    return names


@lru_cache(maxsize=16)
def _cached_subgraph(kg: KnowledgeGraph, focus: Focus, limits: ExtractionLimits) -> Subgraph:
    if focus.entities:
        topic = resolve_entities(kg, focus.entities)
    elif focus.question:
        topic = topic_entities_of_question(kg, focus.question)
    else:
        raise BadInputError(
            f"{kg.location}: a knowledge graph needs a focus: pass --entities or --question"
        )
    return extract_subgraph(kg, topic, focus.hops, focus.question, limits)


def extract_subgraph(
    kg: KnowledgeGraph,
    topic: Sequence[Node],
    hops: int,
    question: str | None,
    limits: ExtractionLimits = DEFAULT_LIMITS,
) -> Subgraph:
    """Expand `hops` hops from `topic` (see the module docstring)."""
    visited: dict[Node, None] = dict.fromkeys(topic)
    triples: dict[Triple, None] = {}
    frontier = list(topic)
    truncated = False
    for _ in range(hops):
        if not frontier:
            break
        counts = kg.relation_counts(frontier)
        selected = rank_relations(kg, counts, question, limits.max_relations)
        hop_edges = kg.edges(frontier, selected, limits.max_triples_per_hop)
        available = sum(counts[key] for key in selected)
        truncated = truncated or available > len(hop_edges)
        frontier_set = set(frontier)
        reached: list[Node] = []
        for triple in hop_edges:
            triples.setdefault(triple, None)
            subject, _, obj = triple
            for end in (subject, obj):
                if is_node(end) and end not in visited and end not in frontier_set:
                    visited[end] = None
                    reached.append(end)
        frontier = reached
    attributes, cut_short = edge_attributes(kg, frontier, limits.max_triples_per_hop)
    entities = tuple(visited)
    names = name_subgraph(kg, entities, tuple(triples), attributes)
    return Subgraph(
        tuple(topic), tuple(triples), entities, names, truncated or cut_short, attributes
    )


def edge_attributes(
    kg: KnowledgeGraph, edge: Sequence[Node], limit: int
) -> tuple[tuple[Triple, ...], bool]:
    """The literal-valued outgoing edges (naming predicates aside) of the
    entities `edge`, at most `limit`, and whether the limit cut them. On a KG
    whose schema is known, only the predicates that ever hold literals are
    asked for, so entity-valued edges do not use up the limit."""
    if not edge:
        return (), False
    data_properties = None
    if kg.whole_schema_is_cheap:
        data_properties = {p for ps in kg.schema().data_properties.values() for p in ps}
    counts = kg.relation_counts(edge)
    wanted = sorted(
        (
            (predicate, direction)
            for predicate, direction in counts
            if direction is Direction.OUT
            and predicate not in NAMING_PREDICATES
            and (data_properties is None or predicate in data_properties)
        ),
        key=lambda key: key[0].value,
    )
    if not wanted:
        return (), False
    found = kg.edges(edge, wanted, limit)
    literals = tuple(triple for triple in found if isinstance(triple[2], Literal))
    return literals, sum(counts[key] for key in wanted) > len(found)


def rank_relations(
    kg: KnowledgeGraph, counts: dict[RelationKey, int], question: str | None, keep: int
) -> list[RelationKey]:
    """The (relation, direction)s to expand, best first.

    Without a question every relation is kept, in IRI order; with one, the
    `keep` relations whose names are closest to the question (both
    directions of each)."""
    relations = sorted(
        {predicate for predicate, _ in counts if predicate not in NAMING_PREDICATES},
        key=lambda predicate: predicate.value,
    )
    if question:
        labels = kg.labels(relations)
        target = embed(question)
        scores = {
            r: similarity(
                target, embed(choose_label(labels.get(r, []), kg.languages) or local_name(r))
            )
            for r in relations
        }
        relations = sorted(relations, key=lambda r: (-scores[r], r.value))[:keep]
    return [
        (predicate, direction)
        for predicate in relations
        for direction in (Direction.OUT, Direction.IN)
        if (predicate, direction) in counts
    ]
