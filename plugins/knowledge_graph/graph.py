"""`KnowledgeGraph`: the one interface extraction, linking and naming use.

Two implementations: `InMemoryKnowledgeGraph` (a file loaded into
integer-encoded numpy arrays) and `SparqlKnowledgeGraph` (a SPARQL endpoint;
every call is a query, so the KG never has to fit in memory). Terms are
pyoxigraph terms (`NamedNode`, `BlankNode`, `Literal`) in both.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from pyoxigraph import BlankNode, Literal, NamedNode, Quad
from pyoxigraph import Triple as RdfTriple

if TYPE_CHECKING:
    from plugins.knowledge_graph.schema import Schema

Node = NamedNode | BlankNode
Term = NamedNode | BlankNode | Literal
Triple = tuple[Node, NamedNode, Term]
Statement = RdfTriple | Quad
"""What readers produce: anything with `subject`, `predicate`, `object`."""


class Direction(Enum):
    """Which way an edge leaves a frontier node: as subject or as object."""

    OUT = "out"
    IN = "in"


RelationKey = tuple[NamedNode, Direction]


class KnowledgeGraph(Protocol):
    """Read access to a knowledge graph, shaped for hop-by-hop extraction.

    Every method takes many nodes at once, so an endpoint answers a hop with
    a few queries and the in-memory store with a few array operations.
    Orders are deterministic: edges sort by the string value (SPARQL `STR`)
    of the frontier node, then of the other node.
    """

    location: str
    languages: tuple[str, ...]
    whole_schema_is_cheap: bool
    """True when `schema()` is cheap enough to name every subgraph by it."""

    def relation_counts(self, frontier: Sequence[Node]) -> dict[RelationKey, int]:
        """How many edges of each (predicate, direction) touch `frontier`."""
        ...

    def edges(
        self, frontier: Sequence[Node], relations: Sequence[RelationKey] | None, limit: int
    ) -> list[Triple]:
        """Edges touching `frontier` whose (predicate, direction) is in
        `relations` (all when None), in the order of `relations`, then by
        frontier node and other node; at most `limit` of them."""
        ...

    def labels(self, nodes: Collection[Node]) -> dict[Node, list[tuple[NamedNode, Literal]]]:
        """The (label predicate, label) pairs of each node that has any."""
        ...

    def types(self, nodes: Collection[Node]) -> dict[Node, list[Node]]:
        """The rdf:type objects of each node that has any."""
        ...

    def schema(self) -> Schema:
        """The types, predicates and per-type fields of the whole KG."""
        ...

    def instances(self, kind: Node, limit: int) -> list[Node]:
        """The first `limit` instances of class `kind`, by string value."""
        ...

    def find_by_labels(self, texts: Collection[str]) -> dict[str, list[Node]]:
        """Entities (not classes, not predicates) whose label, or local name
        when unlabelled, normalises like one of `texts`; keyed by that text."""
        ...

    def similar_labels(
        self, texts: Collection[str], cutoff: float, limit: int
    ) -> list[tuple[str, str, float, list[Node]]]:
        """Fuzzy label matches: (text, label, score 0-100, entities), best
        first, at most `limit` per text. Empty where the backend cannot
        search labels fuzzily (SPARQL endpoints)."""
        ...

    def resolve(self, text: str) -> list[Node]:
        """Nodes `text` names: an IRI (bare or in <>), a local name or a label."""
        ...
