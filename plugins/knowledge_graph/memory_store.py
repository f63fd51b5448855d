"""`InMemoryKnowledgeGraph`: a KG file as integer-encoded triples in numpy.

Chosen by measurement (docs/knowledge_graphs.md, benchmarks/kg_extraction.py):
parsing with pyoxigraph and interning terms into int32 arrays loads a
million triples several times faster than rdflib's default store, in half the
memory, and a hop is a few vectorised array operations instead of one Python
object per triple.

Term ids are assigned in the order of the terms' string values, so sorting
edges by id sorts them exactly like SPARQL's `ORDER BY STR(?x)`: the in-memory
store and an endpoint serving the same data extract the same subgraph.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from functools import cached_property

import numpy as np
from pyoxigraph import BlankNode, Literal, NamedNode
from rapidfuzz import fuzz, process

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import Direction, Node, RelationKey, Statement, Term, Triple
from plugins.knowledge_graph.label_properties import detect_label_predicates
from plugins.knowledge_graph.schema import Schema, SubjectType
from plugins.knowledge_graph.terms import is_node, local_name, named_node, spelled_iri
from plugins.knowledge_graph.text import normalize_label, split_identifier_words
from plugins.knowledge_graph.vocabulary import LABEL_PREDICATES, NAMING_PREDICATES, RDF_TYPE


class InMemoryKnowledgeGraph:
    """A knowledge graph held as sorted (subject, predicate, object) id arrays
    with CSR offsets for both directions."""

    whole_schema_is_cheap = True

    def __init__(
        self,
        location: str,
        terms: list[Term],
        subjects: np.ndarray,
        predicates: np.ndarray,
        objects: np.ndarray,
        languages: tuple[str, ...],
        label_predicates: tuple[NamedNode, ...] = (),
    ):
        """Index triples given as id arrays into `terms` (any order, duplicates
        allowed); `terms` must be sorted by string value (see `intern_triples`).
        `label_predicates` name entities besides the standard ones; when
        empty, they are detected from the schema (`label_properties`)."""
        self.location = location
        self.languages = languages
        self.configured_label_predicates = label_predicates
        self.terms = terms
        self.term_ids = {term: index for index, term in enumerate(terms)}
        order = np.lexsort((objects, predicates, subjects))
        s, p, o = subjects[order], predicates[order], objects[order]
        distinct = np.ones(len(s), dtype=bool)
        distinct[1:] = (np.diff(s) != 0) | (np.diff(p) != 0) | (np.diff(o) != 0)
        self.s, self.p, self.o = s[distinct], p[distinct], o[distinct]
        count = len(terms)
        self.out_offsets = _offsets(self.s, count)
        self.in_order = np.lexsort((self.s, self.p, self.o))
        self.in_offsets = _offsets(self.o[self.in_order], count)

    @classmethod
    def from_triples(
        cls,
        location: str,
        statements: Iterable[Statement],
        languages: tuple[str, ...],
        label_predicates: tuple[NamedNode, ...] = (),
    ) -> InMemoryKnowledgeGraph:
        """Load `statements` (read lazily, once); an empty KG is bad input."""
        terms, subjects, predicates, objects = intern_triples(statements)
        if len(subjects) == 0:
            raise BadInputError(f"{location}: the knowledge graph has no triples")
        return cls(location, terms, subjects, predicates, objects, languages, label_predicates)

    def __len__(self) -> int:
        """The number of distinct triples."""
        return len(self.s)

    # -- hop-by-hop access -------------------------------------------------

    def relation_counts(self, frontier: Sequence[Node]) -> dict[RelationKey, int]:
        """How many edges of each (predicate, direction) touch `frontier`."""
        ids = self._ids(frontier)
        counts: dict[RelationKey, int] = {}
        for direction, rows in (
            (Direction.OUT, _rows(self.out_offsets, ids)),
            (Direction.IN, self.in_order[_rows(self.in_offsets, ids)]),
        ):
            predicates, numbers = np.unique(self.p[rows], return_counts=True)
            for predicate, number in zip(predicates.tolist(), numbers.tolist(), strict=True):
                counts[(self.terms[predicate], direction)] = number
        return counts

    def edges(
        self, frontier: Sequence[Node], relations: Sequence[RelationKey] | None, limit: int
    ) -> list[Triple]:
        """Edges touching `frontier` with the given (predicate, direction)s,
        ordered by relation, frontier node, other node; at most `limit`."""
        ids = self._ids(frontier)
        out_rows = _rows(self.out_offsets, ids)
        in_rows = self.in_order[_rows(self.in_offsets, ids)]
        rows = np.concatenate([out_rows, in_rows])
        is_out = np.arange(len(rows)) < len(out_rows)
        rank = self._relation_ranks(rows, is_out, relations)
        near = np.where(is_out, self.s[rows], self.o[rows])
        far = np.where(is_out, self.o[rows], self.s[rows])
        selected = np.flatnonzero(rank >= 0)
        order = selected[np.lexsort((far[selected], near[selected], rank[selected]))][:limit]
        terms = self.terms
        return [
            (terms[s], terms[p], terms[o])
            for s, p, o in zip(
                self.s[rows[order]].tolist(),
                self.p[rows[order]].tolist(),
                self.o[rows[order]].tolist(),
                strict=True,
            )
        ]

    def _relation_ranks(
        self, rows: np.ndarray, is_out: np.ndarray, relations: Sequence[RelationKey] | None
    ) -> np.ndarray:
        """Per row, the position of its (predicate, direction) in `relations`
        (-1 when not asked for); predicate id order when `relations` is None."""
        direction_bit = np.where(is_out, 0, 1)
        if relations is None:
            return self.p[rows].astype(np.int64) * 2 + direction_bit
        table = np.full((len(self.terms), 2), -1, dtype=np.int64)
        for position, (predicate, direction) in enumerate(relations):
            index = self.term_ids.get(predicate)
            if index is not None:
                table[index, 0 if direction is Direction.OUT else 1] = position
        return table[self.p[rows], direction_bit]

    # -- names and types ---------------------------------------------------

    def labels(self, nodes: Collection[Node]) -> dict[Node, list[tuple[NamedNode, Literal]]]:
        """The (label predicate, label) pairs of each node that has any."""
        found: dict[Node, list[tuple[NamedNode, Literal]]] = {}
        for node, predicate, label in self._objects_of(nodes, self._label_predicate_ids):
            if isinstance(label, Literal):
                found.setdefault(node, []).append((predicate, label))
        return found

    def types(self, nodes: Collection[Node]) -> dict[Node, list[Node]]:
        """The rdf:type objects of each node that has any."""
        found: dict[Node, list[Node]] = {}
        type_ids = np.array([self.term_ids.get(RDF_TYPE, -1)])
        for node, _, kind in self._objects_of(nodes, type_ids):
            if is_node(kind):
                found.setdefault(node, []).append(kind)
        return found

    def _objects_of(
        self, nodes: Collection[Node], predicate_ids: np.ndarray
    ) -> list[tuple[Node, NamedNode, Term]]:
        rows = _rows(self.out_offsets, self._ids(nodes))
        rows = rows[np.isin(self.p[rows], predicate_ids)]
        terms = self.terms
        return [
            (terms[s], terms[p], terms[o])
            for s, p, o in zip(
                self.s[rows].tolist(), self.p[rows].tolist(), self.o[rows].tolist(), strict=True
            )
        ]

    @cached_property
    def own_label_predicates(self) -> tuple[NamedNode, ...]:
        """The KG's own label predicates: the configured ones, else the
        name-like data properties detected per unlabelled type."""
        return self.configured_label_predicates or detect_label_predicates(self.schema())

    @cached_property
    def _label_predicate_ids(self) -> np.ndarray:
        predicates = (*LABEL_PREDICATES, *self.own_label_predicates)
        return np.array([self.term_ids[p] for p in predicates if p in self.term_ids] or [-1])

    # -- the whole graph's schema -------------------------------------------

    def schema(self) -> Schema:
        """Types, predicates and the fields of each type, over the whole KG."""
        return self._schema

    def instances(self, kind: Node, limit: int) -> list[Node]:
        """The first `limit` instances of class `kind`, by string value."""
        type_id, class_id = self.term_ids.get(RDF_TYPE), self.term_ids.get(kind)
        if type_id is None or class_id is None:
            return []
        rows = self.in_order[_rows(self.in_offsets, np.array([class_id]))]
        subjects = self.s[rows[self.p[rows] == type_id]]  # sorted: incoming edges sort by subject
        return [self.terms[i] for i in subjects[:limit].tolist()]

    @cached_property
    def _schema(self) -> Schema:
        type_id = self.term_ids.get(RDF_TYPE, -1)
        typing = np.flatnonzero(self.p == type_id)
        typing = typing[self._is_node[self.o[typing]]]
        instances, classes = self.s[typing], self.o[typing]
        naming_ids = [self.term_ids[p] for p in NAMING_PREDICATES if p in self.term_ids]
        is_field = np.ones(len(self.terms), dtype=bool)
        is_field[naming_ids] = False
        typed_rows = _rows(self.out_offsets, instances)
        row_classes = np.repeat(classes, np.diff(self.out_offsets)[instances])
        typed = np.zeros(len(self.terms), dtype=bool)
        typed[instances] = True
        untyped_rows = np.flatnonzero(~typed[self.s])
        subject_classes = np.concatenate([row_classes, np.full(len(untyped_rows), -1)])
        rows = np.concatenate([typed_rows, untyped_rows])
        keep = is_field[self.p[rows]]
        fields, data, multi_valued = self._fields_by_type(subject_classes[keep], rows[keep])
        label_ids = [self.term_ids[p] for p in LABEL_PREDICATES if p in self.term_ids]
        labelled_classes = np.unique(subject_classes[np.isin(self.p[rows], label_ids)]).tolist()
        class_ids, class_counts = np.unique(classes, return_counts=True)
        predicate_ids, predicate_counts = np.unique(self.p, return_counts=True)
        return Schema(
            {
                self.terms[c]: n
                for c, n in zip(class_ids.tolist(), class_counts.tolist(), strict=True)
            },
            {
                self.terms[p]: n
                for p, n in zip(predicate_ids.tolist(), predicate_counts.tolist(), strict=True)
            },
            fields,
            data,
            frozenset(self.terms[c] if c >= 0 else None for c in labelled_classes),
            multi_valued,
        )

    def _fields_by_type(
        self, subject_classes: np.ndarray, rows: np.ndarray
    ) -> tuple[
        dict[SubjectType, frozenset[NamedNode]],
        dict[SubjectType, frozenset[NamedNode]],
        dict[SubjectType, frozenset[NamedNode]],
    ]:
        """Per subject class (-1: untyped), the predicates of `rows`, those
        of them whose objects are all literals, and those some subject has
        with two objects or more (triples are distinct: a repeated
        class-subject-predicate row is a second object)."""
        width = len(self.terms)
        keys = (subject_classes.astype(np.int64) + 1) * width + self.p[rows]
        literal = ~self._is_node[self.o[rows]]
        every = np.unique(keys)
        with_entities = set(np.unique(keys[~literal]).tolist())
        pairs = np.column_stack([keys, self.s[rows].astype(np.int64)])  # a row per class
        _, inverse, counts = np.unique(pairs, axis=0, return_inverse=True, return_counts=True)
        repeated = set(np.unique(keys[counts[inverse.ravel()] > 1]).tolist())
        fields: dict[SubjectType, set[NamedNode]] = {}
        data: dict[SubjectType, set[NamedNode]] = {}
        multi: dict[SubjectType, set[NamedNode]] = {}
        for key in every.tolist():
            class_id, predicate_id = divmod(key, width)
            kind = self.terms[class_id - 1] if class_id else None
            predicate = self.terms[predicate_id]
            fields.setdefault(kind, set()).add(predicate)
            if key not in with_entities:
                data.setdefault(kind, set()).add(predicate)
            if key in repeated:
                multi.setdefault(kind, set()).add(predicate)
        return (
            {kind: frozenset(p) for kind, p in fields.items()},
            {kind: frozenset(p) for kind, p in data.items()},
            {kind: frozenset(p) for kind, p in multi.items()},
        )

    @cached_property
    def _is_node(self) -> np.ndarray:
        return np.array([is_node(term) for term in self.terms], dtype=bool)

    # -- finding entities by name -------------------------------------------

    def find_by_labels(self, texts: Collection[str]) -> dict[str, list[Node]]:
        """Entities whose label (or unlabelled local name) normalises like a text."""
        found: dict[str, list[Node]] = {}
        for text in texts:
            ids = self._label_index.get(normalize_label(text))
            if ids:
                found[text] = [self.terms[i] for i in ids]
        return found

    def similar_labels(
        self, texts: Collection[str], cutoff: float, limit: int
    ) -> list[tuple[str, str, float, list[Node]]]:
        """Fuzzy matches (rapidfuzz ratio on normalised labels), best first."""
        choices = self._label_choices
        matches: list[tuple[str, str, float, list[Node]]] = []
        for text in texts:
            for label, score, _ in process.extract(
                normalize_label(text), choices, scorer=fuzz.ratio, score_cutoff=cutoff, limit=limit
            ):
                nodes = [self.terms[i] for i in self._label_index[label]]
                matches.append((text, label, float(score), nodes))
        matches.sort(key=lambda match: (-match[2], match[1]))
        return matches

    def resolve(self, text: str) -> list[Node]:
        """Nodes named by an IRI (bare or in <>), a local name or a label."""
        text = text.strip()
        iri = spelled_iri(text)
        if iri is not None:
            node = named_node(iri)
            return [node] if node is not None and node in self.term_ids else []
        ids = self._local_name_index.get(text) or self._label_index.get(normalize_label(text), [])
        return [self.terms[i] for i in ids]

    @cached_property
    def _node_ids(self) -> np.ndarray:
        """Ids of every IRI and blank node used as subject or object."""
        candidates = np.unique(np.concatenate([self.s, self.o]))
        keep = [i for i in candidates.tolist() if is_node(self.terms[i])]
        return np.array(keep, dtype=np.int64)

    @cached_property
    def _label_index(self) -> dict[str, list[int]]:
        """Normalised label -> entity ids; classes and predicates left out so
        that "film" in a question does not link to the class Film."""
        schema = set(np.unique(self.p).tolist())
        type_id = self.term_ids.get(RDF_TYPE)
        if type_id is not None:
            schema.update(self.o[self.p == type_id].tolist())
        index: dict[str, list[int]] = {}
        label_rows = np.flatnonzero(np.isin(self.p, self._label_predicate_ids))
        labelled = set()
        for s, o in zip(self.s[label_rows].tolist(), self.o[label_rows].tolist(), strict=True):
            labelled.add(s)
            if s not in schema and isinstance(self.terms[o], Literal):
                _add_unique(index.setdefault(normalize_label(self.terms[o].value), []), s)
        for node_id in self._node_ids.tolist():
            if node_id in labelled or node_id in schema:
                continue
            node = self.terms[node_id]
            if isinstance(node, NamedNode):
                name = normalize_label(split_identifier_words(local_name(node)))
                _add_unique(index.setdefault(name, []), node_id)
        return index

    @cached_property
    def _label_choices(self) -> list[str]:
        return sorted(self._label_index)

    @cached_property
    def _local_name_index(self) -> dict[str, list[int]]:
        index: dict[str, list[int]] = {}
        for node_id in self._node_ids.tolist():
            node = self.terms[node_id]
            if isinstance(node, NamedNode):
                index.setdefault(local_name(node), []).append(node_id)
        return index

    def _ids(self, nodes: Iterable[Node]) -> np.ndarray:
        ids = [self.term_ids[node] for node in nodes if node in self.term_ids]
        return np.unique(np.array(ids, dtype=np.int64))


def intern_triples(
    statements: Iterable[Statement],
) -> tuple[list[Term], np.ndarray, np.ndarray, np.ndarray]:
    """Terms sorted by string value, and the subject/predicate/object id arrays.

    The hot loop of loading: one dict lookup per term occurrence, no string
    conversion (pyoxigraph terms hash natively). Statements about RDF 1.2
    triple terms are dropped (a documented limit), in bulk afterwards so the
    loop stays lean.
    """
    ids: dict[object, int] = {}
    intern = ids.setdefault
    flat: list[int] = []
    append = flat.append
    for statement in statements:
        append(intern(statement.subject, len(ids)))
        append(intern(statement.predicate, len(ids)))
        append(intern(statement.object, len(ids)))
    encoded = np.array(flat, dtype=np.int32).reshape(-1, 3)
    everything = list(ids)
    plain = np.array([isinstance(t, NamedNode | BlankNode | Literal) for t in everything])
    if not plain.all():
        encoded = encoded[plain[encoded].all(axis=1)]
    kept = np.flatnonzero(plain)
    order = sorted(kept.tolist(), key=lambda i: (everything[i].value, str(everything[i])))
    rank = np.full(len(everything), -1, dtype=np.int32)
    rank[np.array(order, dtype=np.int64)] = np.arange(len(order), dtype=np.int32)
    encoded = rank[encoded]
    return [everything[i] for i in order], encoded[:, 0], encoded[:, 1], encoded[:, 2]


def _add_unique(ids: list[int], node_id: int) -> None:
    if node_id not in ids:
        ids.append(node_id)


def _offsets(sorted_ids: np.ndarray, count: int) -> np.ndarray:
    """CSR offsets: rows of id i are offsets[i]:offsets[i+1]."""
    return np.concatenate([[0], np.cumsum(np.bincount(sorted_ids, minlength=count))])


def _rows(offsets: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """The row positions of every id in `ids`, concatenated (vectorised)."""
    if len(ids) == 0:
        return np.zeros(0, dtype=np.int64)
    starts = offsets[ids]
    lengths = offsets[ids + 1] - starts
    total = int(lengths.sum())
    shifts = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return shifts + np.arange(total)
