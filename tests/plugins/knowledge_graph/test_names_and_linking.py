"""Display names (labels, languages, local names, blank nodes) and entity linking."""

from __future__ import annotations

import pytest

from plugins import BadInputError, Focus, load_source
from plugins.knowledge_graph.entity_linking import link_entities
from plugins.knowledge_graph.subgraph import focus_subgraph


def names_of(source, *entities: str, hops: int = 1) -> dict[str, str]:
    subgraph = focus_subgraph(source.handle, Focus(entities=entities, hops=hops))
    return {node.value: name for node, name in subgraph.names.entities.items()}


def test_label_language_preference_is_configurable(write_graph, monkeypatch) -> None:
    path = write_graph("wikidata")
    english = names_of(load_source(str(path)), "http://www.wikidata.org/entity/Q202548")
    assert english["http://www.wikidata.org/entity/Q202548"] == "Vertigo"
    monkeypatch.setenv("PANDORA_KG_LANGUAGES", "de,en")
    german = names_of(load_source(str(path)), "http://www.wikidata.org/entity/Q202548", hops=2)
    assert german["http://www.wikidata.org/entity/Q202548"] == "Vertigo – Aus dem Reich der Toten"
    assert german["http://www.wikidata.org/entity/Q145"] == "Vereinigtes Königreich"


def test_entities_sharing_a_label_get_distinct_names(write_graph) -> None:
    source = load_source(str(write_graph("wikidata")))
    names = names_of(source, "France", "United States")
    assert names["http://www.wikidata.org/entity/Q90"] == "Paris (Q90)"
    assert names["http://www.wikidata.org/entity/Q830149"] == "Paris (Q830149)"


def test_other_label_predicates_and_local_name_fallback(tmp_path) -> None:
    path = tmp_path / "kg.ttl"
    path.write_text(
        "@prefix ex: <http://e/> . @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        "@prefix schema: <http://schema.org/> .\n"
        'ex:a skos:prefLabel "Alpha" ; ex:knows ex:b , ex:Unnamed_Thing .\n'
        'ex:b schema:name "Beta" .\n'
    )
    names = names_of(load_source(str(path)), "Alpha")
    assert names == {
        "http://e/a": "Alpha",
        "http://e/b": "Beta",
        "http://e/Unnamed_Thing": "Unnamed_Thing",
    }


def test_blank_nodes_get_a_readable_id_stable_across_loads() -> None:
    first = names_of(load_source("examples/films.ttl"), "La Strada")
    second = names_of(load_source("examples/films.ttl"), "La Strada")
    (blank_first,) = [n for iri, n in first.items() if "example.org" not in iri]
    (blank_second,) = [n for iri, n in second.items() if "example.org" not in iri]
    assert blank_first == blank_second
    assert blank_first.startswith("award_win ")


def test_linking_ranks_exact_labels_and_skips_classes_and_relations() -> None:
    source = load_source("examples/films.ttl")
    matches = link_entities(
        source.handle, "Which film directed by Alfred Hitchcock stars Grace Kelly?"
    )
    assert [m.node.value.rsplit("/", 1)[1] for m in matches] == ["AlfredHitchcock", "GraceKelly"]
    assert all(m.score == 1.0 for m in matches)


def test_linking_falls_back_to_fuzzy_matching_with_lower_scores() -> None:
    source = load_source("examples/films.ttl")
    (match,) = link_entities(source.handle, "Who directed Vertgo?")
    assert match.node.value.endswith("/Vertigo")
    assert 0.85 <= match.score < 1.0


def test_linking_over_unlabelled_freebase_style_names(write_graph) -> None:
    source = load_source(str(write_graph("freebase")))
    matches = link_entities(source.handle, "whom did elizabeth taylor marry?")
    assert [m.node.value for m in matches] == ["http://rdf.freebase.com/ns/m.liz"]


def test_unknown_entity_suggests_the_closest_labels() -> None:
    source = load_source("examples/films.ttl")
    with pytest.raises(
        BadInputError,
        match=r"entity 'Alfred Hichcock' is not in the graph; closest labels: Alfred Hitchcock",
    ):
        focus_subgraph(source.handle, Focus(entities=("Alfred Hichcock",)))


def test_question_without_known_entities_and_missing_focus_are_bad_input() -> None:
    source = load_source("examples/films.ttl")
    with pytest.raises(BadInputError, match="no entity of the question"):
        focus_subgraph(source.handle, Focus(question="What is the meaning of life?"))
    with pytest.raises(BadInputError, match="pass --entities or --question"):
        focus_subgraph(source.handle, Focus())


def test_entities_by_iri_and_local_name() -> None:
    source = load_source("examples/films.ttl")
    by_iri = focus_subgraph(source.handle, Focus(entities=("<http://example.org/films/Vertigo>",)))
    by_local_name = focus_subgraph(source.handle, Focus(entities=("Vertigo",)))
    assert by_iri.triples == by_local_name.triples
