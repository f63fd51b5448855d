"""`SparqlKnowledgeGraph`: a KG behind a SPARQL endpoint, read by queries.

Nothing is downloaded up front; each hop costs two counting queries and one
query per kept relation and direction, each bounded by `LIMIT` and ordered by
`STR()` like the in-memory store, so both extract the same subgraph from the
same data. Blank nodes cannot be named in a query, so they are reached but
never expanded. Fuzzy label search is not available on an endpoint: linking
there matches labels exactly (as written in the question, or title-cased),
in the preferred languages or untagged.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from pyoxigraph import Literal, NamedNode

from plugins.knowledge_graph.graph import Direction, Node, RelationKey, Term, Triple
from plugins.knowledge_graph.schema import Schema, SubjectType
from plugins.knowledge_graph.sparql_client import SparqlClient
from plugins.knowledge_graph.terms import named_node, spelled_iri
from plugins.knowledge_graph.vocabulary import LABEL_PREDICATES, NAMING_PREDICATES, RDF_TYPE

# One VALUES block per query: some engines (rdflib among them) join two
# VALUES blocks before the triple pattern and scan the whole store.


class SparqlKnowledgeGraph:
    """The `KnowledgeGraph` interface answered by SPARQL queries."""

    whole_schema_is_cheap = False

    def __init__(
        self,
        location: str,
        client: SparqlClient,
        languages: tuple[str, ...],
        label_predicates: tuple[NamedNode, ...] = (),
    ):
        """`location` is how the user named the endpoint (for messages);
        `label_predicates` name entities besides the standard ones (an
        endpoint is not scanned to detect them)."""
        self.location = location
        self.client = client
        self.languages = languages
        self.own_label_predicates = label_predicates
        self._label_predicate_list = ", ".join(
            str(p) for p in (*LABEL_PREDICATES, *label_predicates)
        )

    def relation_counts(self, frontier: Sequence[Node]) -> dict[RelationKey, int]:
        """How many edges of each (predicate, direction) touch `frontier`."""
        values = _values(frontier)
        if not values:
            return {}
        counts: dict[RelationKey, int] = {}
        patterns = {Direction.OUT: "?x ?p ?other", Direction.IN: "?other ?p ?x"}
        for direction, pattern in patterns.items():
            rows = self.client.select(
                f"SELECT ?p (COUNT(*) AS ?n) WHERE {{ VALUES ?x {{ {values} }} {pattern} }} "
                "GROUP BY ?p"
            )
            for row in rows:
                if "p" in row and "n" in row:  # some stores answer one empty group
                    counts[(row["p"], direction)] = int(row["n"].value)
        return counts

    def edges(
        self, frontier: Sequence[Node], relations: Sequence[RelationKey] | None, limit: int
    ) -> list[Triple]:
        """Edges touching `frontier`, one query per (relation, direction)."""
        values = _values(frontier)
        if not values:
            return []
        if relations is None:
            relations = sorted(
                self.relation_counts(frontier),
                key=lambda key: (key[0].value, key[1].value != "out"),
            )
        found: list[Triple] = []
        for predicate, direction in relations:
            remaining = limit - len(found)
            if remaining <= 0:
                break
            pattern = (
                f"?x {predicate} ?other" if direction is Direction.OUT else f"?other {predicate} ?x"
            )
            rows = self.client.select(
                f"SELECT ?x ?other WHERE {{ VALUES ?x {{ {values} }} {pattern} }} "
                f"ORDER BY STR(?x) STR(?other) LIMIT {remaining}"
            )
            for row in rows:
                if direction is Direction.OUT:
                    found.append((row["x"], predicate, row["other"]))
                else:
                    found.append((row["other"], predicate, row["x"]))
        return found

    def labels(self, nodes: Collection[Node]) -> dict[Node, list[tuple[NamedNode, Literal]]]:
        """The (label predicate, label) pairs of each node that has any."""
        values = _values(nodes)
        if not values:
            return {}
        rows = self.client.select(
            f"SELECT ?x ?p ?l WHERE {{ VALUES ?x {{ {values} }} ?x ?p ?l "
            f"FILTER(?p IN ({self._label_predicate_list})) }}"
        )
        found: dict[Node, list[tuple[NamedNode, Literal]]] = {}
        for row in rows:
            if isinstance(row["l"], Literal):
                found.setdefault(row["x"], []).append((row["p"], row["l"]))
        return found

    def types(self, nodes: Collection[Node]) -> dict[Node, list[Node]]:
        """The rdf:type objects of each node that has any."""
        values = _values(nodes)
        if not values:
            return {}
        rows = self.client.select(
            f"SELECT ?x ?t WHERE {{ VALUES ?x {{ {values} }} ?x {RDF_TYPE} ?t }}"
        )
        found: dict[Node, list[Node]] = {}
        for row in rows:
            if not isinstance(row["t"], Literal):
                found.setdefault(row["x"], []).append(row["t"])
        return found

    def schema(self) -> Schema:
        """The endpoint's schema, by four aggregate queries over all its
        triples (slow on a large endpoint: only the KG overview asks)."""
        type_counts = {
            row["t"]: int(row["n"].value)
            for row in self.client.select(
                f"SELECT ?t (COUNT(DISTINCT ?x) AS ?n) WHERE {{ ?x {RDF_TYPE} ?t }} GROUP BY ?t"
            )
            if "t" in row and not isinstance(row["t"], Literal)
        }
        predicate_counts = {
            row["p"]: int(row["n"].value)
            for row in self.client.select(
                "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p"
            )
            if "p" in row
        }
        entity_objects = "(SUM(IF(isLiteral(?o), 0, 1)) AS ?entities)"
        typed = self.client.select(
            f"SELECT ?t ?p {entity_objects} WHERE {{ ?x {RDF_TYPE} ?t . ?x ?p ?o }} GROUP BY ?t ?p"
        )
        untyped = self.client.select(
            f"SELECT ?p {entity_objects} WHERE {{ ?x ?p ?o "
            f"FILTER NOT EXISTS {{ ?x {RDF_TYPE} ?t }} }} GROUP BY ?p"
        )
        fields: dict[SubjectType, set[NamedNode]] = {}
        data: dict[SubjectType, set[NamedNode]] = {}
        labelled: set[SubjectType] = set()
        for row in [*typed, *untyped]:
            kind = row.get("t")
            if "p" not in row or isinstance(kind, Literal):
                continue
            if row["p"] in LABEL_PREDICATES:
                labelled.add(kind)
            if row["p"] in NAMING_PREDICATES:
                continue
            fields.setdefault(kind, set()).add(row["p"])
            if int(row["entities"].value) == 0:
                data.setdefault(kind, set()).add(row["p"])
        return Schema(
            type_counts,
            predicate_counts,
            {kind: frozenset(p) for kind, p in fields.items()},
            {kind: frozenset(p) for kind, p in data.items()},
            frozenset(labelled),
        )

    def instances(self, kind: Node, limit: int) -> list[Node]:
        """The first `limit` instances of class `kind`, by string value."""
        if not isinstance(kind, NamedNode):
            return []
        rows = self.client.select(
            f"SELECT DISTINCT ?x WHERE {{ ?x {RDF_TYPE} {kind} }} ORDER BY STR(?x) LIMIT {limit}"
        )
        return [row["x"] for row in rows if "x" in row]

    def find_by_labels(self, texts: Collection[str]) -> dict[str, list[Node]]:
        """Entities labelled exactly `text` (or its title case), preferred
        languages or untagged; classes and predicates left out."""
        variants: dict[Literal, set[str]] = {}
        for text in texts:
            for form in {text, text.title()}:
                for language in (*self.languages, None):
                    literal = Literal(form, language=language) if language else Literal(form)
                    variants.setdefault(literal, set()).add(text)
        if not variants:
            return {}
        rows = self.client.select(
            "SELECT DISTINCT ?x ?l WHERE { "
            f"VALUES ?l {{ {' '.join(str(v) for v in variants)} }} ?x ?p ?l "
            f"FILTER(?p IN ({self._label_predicate_list})) "
            f"FILTER NOT EXISTS {{ ?instance {RDF_TYPE} ?x }} "
            "FILTER NOT EXISTS { ?s ?x ?o } }"
        )
        found: dict[str, list[Node]] = {}
        for row in rows:
            for text in variants.get(row["l"], ()):
                if row["x"] not in found.setdefault(text, []):
                    found[text].append(row["x"])
        return found

    def similar_labels(
        self, texts: Collection[str], cutoff: float, limit: int
    ) -> list[tuple[str, str, float, list[Node]]]:
        """Always empty: fuzzy search over an endpoint's labels is not offered."""
        return []

    def resolve(self, text: str) -> list[Node]:
        """The IRI `text` names if the endpoint knows it, else exact label matches."""
        text = text.strip()
        iri = spelled_iri(text)
        if iri is not None:
            node = named_node(iri)
            if node is None:
                return []
            known = self.client.ask(f"ASK {{ {{ {node} ?p ?o }} UNION {{ ?s ?p {node} }} }}")
            return [node] if known else []
        return self.find_by_labels([text]).get(text, [])


def _values(nodes: Iterable[Term]) -> str:
    """IRIs for a VALUES clause (blank nodes cannot be named in a query)."""
    return " ".join(sorted({str(node) for node in nodes if isinstance(node, NamedNode)}))
