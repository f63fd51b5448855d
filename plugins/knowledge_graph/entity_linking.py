"""Finding the topic entities of a question, or of names the user gave.

Linking matches the question's word n-grams (up to six words) against
normalised entity labels; longer matches win over the shorter ones inside
them. Only when nothing matches exactly, a fuzzy fallback (rapidfuzz ratio)
looks for near misses ("Hitchock"). Classes and predicates are never linked:
"film" in a question means the relation or type, not an entity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import KnowledgeGraph, Node
from plugins.knowledge_graph.naming import choose_label
from plugins.knowledge_graph.text import normalize_label

MAX_NGRAM_WORDS = 6
MAX_TOPIC_ENTITIES = 5
FUZZY_CUTOFF = 85.0
SUGGESTION_CUTOFF = 50.0
SUGGESTIONS = 3
_WORD = re.compile(r"\w+(?:['’.-]\w+)*")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "its",
        "many",
        "me",
        "much",
        "of",
        "on",
        "or",
        "than",
        "that",
        "the",
        "their",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "whose",
        "why",
        "will",
        "with",
    ]
)


@dataclass(frozen=True)
class EntityMatch:
    """One linked entity: the question words that named it and how well."""

    node: Node
    mention: str
    label: str
    score: float


def link_entities(kg: KnowledgeGraph, question: str) -> list[EntityMatch]:
    """Entities the question names, best first (score 1.0 for an exact
    normalised label match, the fuzzy ratio / 100 otherwise)."""
    spans = _candidate_spans(question)
    exact = kg.find_by_labels(set(spans.values()))
    scored = [(1.0, span, exact[text], text) for span, text in spans.items() if text in exact]
    if not scored:
        by_text = {text: span for span, text in spans.items() if len(text) >= 4}
        scored = [
            (score / 100, by_text[text], nodes, label)
            for text, label, score, nodes in kg.similar_labels(list(by_text), FUZZY_CUTOFF, 3)
        ]
    matches: list[EntityMatch] = []
    covered: set[int] = set()
    for score, (start, end), nodes, label in sorted(
        scored, key=lambda item: (-item[0], item[1][0] - item[1][1], item[1][0])
    ):
        if covered.intersection(range(start, end)):
            continue
        covered.update(range(start, end))
        matches.extend(
            EntityMatch(node, spans[(start, end)], label, score) for node in _sorted(nodes)
        )
    return matches


class NoTopicEntity(BadInputError):
    """The question names no entity of the graph (and none was given)."""


def topic_entities_of_question(kg: KnowledgeGraph, question: str) -> tuple[Node, ...]:
    """The topic entities of `question`, or NoTopicEntity when none is found."""
    matches = link_entities(kg, question)
    if not matches:
        raise NoTopicEntity(
            f"{kg.location}: no entity of the question was found in the graph; "
            f"name the topic entities with --entities ({_question_suggestions(kg, question)})"
        )
    nodes: list[Node] = []
    for match in matches:
        if match.node not in nodes:
            nodes.append(match.node)
    return tuple(nodes[:MAX_TOPIC_ENTITIES])


def resolve_entities(kg: KnowledgeGraph, texts: tuple[str, ...]) -> tuple[Node, ...]:
    """The nodes the user named (IRIs, local names or labels); an unknown
    name is a BadInputError that suggests the closest labels."""
    nodes: list[Node] = []
    for text in texts:
        found = kg.resolve(text)
        if not found:
            raise BadInputError(
                f"{kg.location}: entity {text!r} is not in the graph; {_suggestions(kg, text)}"
            )
        nodes.extend(node for node in _sorted(found) if node not in nodes)
    return tuple(nodes)


def _suggestions(kg: KnowledgeGraph, text: str) -> str:
    shown = _closest_labels(kg, [text], 3)
    if not shown:
        return "no similar label found (give an IRI, a local name or an exact label)"
    return "closest labels: " + ", ".join(shown)


def _question_suggestions(kg: KnowledgeGraph, question: str) -> str:
    """The labels closest to any word n-gram of a question that linked nothing."""
    texts = [text for text in _candidate_spans(question).values() if len(text) >= 4]
    shown = _closest_labels(kg, texts, 1)
    if not shown:
        return "no similar label found"
    return "closest labels: " + ", ".join(shown)


def _closest_labels(kg: KnowledgeGraph, texts: list[str], per_text: int) -> list[str]:
    """The display labels of the entities most similar to `texts`, best
    first, at most SUGGESTIONS (none on an endpoint: no fuzzy search)."""
    matches = sorted(kg.similar_labels(texts, SUGGESTION_CUTOFF, per_text), key=lambda m: -m[2])
    nodes = [nodes[0] for _, _, _, nodes in matches]
    labels = kg.labels(nodes)
    shown = [
        choose_label(labels.get(node, []), kg.languages) or label
        for node, (_, label, _, _) in zip(nodes, matches, strict=True)
    ]
    return list(dict.fromkeys(shown))[:SUGGESTIONS]


def _candidate_spans(question: str) -> dict[tuple[int, int], str]:
    """Word n-grams worth looking up, as written in the question (so an
    endpoint can match labels exactly): (first word, last word + 1) -> text.
    Spans of stopwords only, or of one single-character word, are skipped."""
    words = list(_WORD.finditer(question))
    spans = {}
    for start in range(len(words)):
        for end in range(start + 1, min(start + MAX_NGRAM_WORDS, len(words)) + 1):
            text = question[words[start].start() : words[end - 1].end()]
            normalized = normalize_label(text).split()
            if all(word in STOPWORDS for word in normalized) or len(text) < 2:
                continue
            spans[(start, end)] = text
    return spans


def _sorted(nodes: list[Node]) -> list[Node]:
    return sorted(nodes, key=lambda node: (node.value, str(node)))
