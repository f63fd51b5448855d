"""Frontier-based extraction: hops, both directions, pruning, caps, cycles."""

from __future__ import annotations

import pytest
from pyoxigraph import NamedNode

from plugins import BadInputError, Focus, load_source
from plugins.knowledge_graph.subgraph import ExtractionLimits, extract_subgraph, focus_subgraph

FILMS = "http://example.org/films/"


@pytest.fixture(scope="module")
def films():
    return load_source("examples/films.ttl").handle


def shown(subgraph) -> set[tuple[str, str, str]]:
    names = subgraph.names
    return {
        (names.entities[s], names.relations[p], names.entities.get(o, o.value))
        for s, p, o in subgraph.triples
    }


def test_one_hop_takes_both_directions_and_no_naming_predicates(films) -> None:
    subgraph = focus_subgraph(films, Focus(entities=("Alfred Hitchcock",), hops=1))
    triples = shown(subgraph)
    assert ("Vertigo", "directed_by", "Alfred Hitchcock") in triples  # incoming
    assert ("Alfred Hitchcock", "nationality", "United Kingdom") in triples  # outgoing
    relations = {relation for _, relation, _ in triples}
    assert relations == {"directed_by", "nationality", "birth_date"}


def test_second_hop_expands_every_new_entity_once(films) -> None:
    one = focus_subgraph(films, Focus(entities=("Alfred Hitchcock",), hops=1))
    two = focus_subgraph(films, Focus(entities=("Alfred Hitchcock",), hops=2))
    assert set(one.triples) < set(two.triples)
    assert len(two.triples) == len(set(two.triples))
    assert ("Vertigo", "starring", "Kim Novak") in shown(two)


def test_question_prunes_relations_to_the_most_similar(films) -> None:
    limits = ExtractionLimits(max_relations=1)
    topic = (NamedNode(FILMS + "Vertigo"),)
    subgraph = extract_subgraph(films, topic, 1, "Who starred in Vertigo?", limits)
    assert {relation for _, relation, _ in shown(subgraph)} == {"starring"}


def test_triple_cap_is_deterministic_and_reported(films) -> None:
    limits = ExtractionLimits(max_triples_per_hop=5)
    topic = (NamedNode(FILMS + "USA"),)
    first = extract_subgraph(films, topic, 2, None, limits)
    second = extract_subgraph(films, topic, 2, None, limits)
    assert first.truncated
    assert first.triples == second.triples
    assert len(first.triples) <= 10


def test_self_loops_and_cycles_terminate(tmp_path) -> None:
    path = tmp_path / "cycle.ttl"
    path.write_text(
        "@prefix ex: <http://e/> .\n"
        "ex:a ex:next ex:b . ex:b ex:next ex:c . ex:c ex:next ex:a . ex:a ex:same ex:a .\n"
    )
    kg = load_source(str(path)).handle
    subgraph = focus_subgraph(kg, Focus(entities=("a",), hops=4))
    assert sorted(shown(subgraph)) == [
        ("a", "next", "b"),
        ("a", "same", "a"),
        ("b", "next", "c"),
        ("c", "next", "a"),
    ]


def test_hops_above_the_cap_are_bad_input(films) -> None:
    with pytest.raises(BadInputError, match="hops must be between 0 and 4, got 5"):
        focus_subgraph(films, Focus(entities=("Vertigo",), hops=5))
