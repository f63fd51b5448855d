"""Linking on KGs without rdfs:label: name-like data properties per type, or
the predicates `PANDORA_KG_LABEL_PREDICATES` names.

Uses a small Spider4SPARQL-style KG (fixtures/concert_singer_small.ttl:
`singer#name`, `stadium#name`, `concert#concert_name`, no rdfs:label);
the last test runs a program through the executor.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode
from rdflib import Graph

from plugins import Focus, Workspace, load_source
from plugins.errors import BadInputError
from plugins.executor import execute
from plugins.executor.results import render_value
from plugins.knowledge_graph import focus_subgraph
from plugins.knowledge_graph.entity_linking import link_entities, resolve_entities
from plugins.knowledge_graph.label_properties import detect_label_predicates
from plugins.knowledge_graph.overview import describe_knowledge_graph

CONCERTS = Path(__file__).parent / "fixtures" / "concert_singer_small.ttl"
ONTOP = "http://valuenet/ontop/"
TIMBALAND = NamedNode(ONTOP + "singer/singer_id=2")
QUESTION = "How many concerts did Timbaland sing in?"


def local(predicates) -> list[str]:
    return [p.value.removeprefix(ONTOP) for p in predicates]


def test_name_like_properties_are_detected_per_type() -> None:
    kg = load_source(str(CONCERTS)).handle
    assert local(kg.own_label_predicates) == ["concert#concert_name", "singer#name", "stadium#name"]


def test_entities_option_and_question_link_by_those_names() -> None:
    kg = load_source(str(CONCERTS)).handle
    assert resolve_entities(kg, ("Timbaland",)) == (TIMBALAND,)
    assert [match.node for match in link_entities(kg, QUESTION)] == [TIMBALAND]
    subgraph = focus_subgraph(kg, Focus(question=QUESTION, hops=2))
    assert subgraph.topic_entities == (TIMBALAND,)
    assert subgraph.names.entities[NamedNode(ONTOP + "concert/concert_id=6")] == "Week 2"


def test_overview_examples_use_those_names() -> None:
    overview = describe_knowledge_graph(load_source(str(CONCERTS)), examples_per_type=2)
    examples = {kind.name: kind.examples for kind in overview.types}
    assert examples["singer"] == ["Timbaland", "Justin Brown"]
    assert examples["concert"] == ["Auditions", "Super bootcamp"]


def test_the_setting_replaces_detection(monkeypatch) -> None:
    monkeypatch.setenv("PANDORA_KG_LABEL_PREDICATES", f"{ONTOP}singer#song_name, <{ONTOP}x#y>")
    kg = load_source(str(CONCERTS)).handle
    assert local(kg.own_label_predicates) == ["singer#song_name", "x#y"]
    assert resolve_entities(kg, ("Dangerous",)) == (TIMBALAND,)
    with pytest.raises(BadInputError, match="'Timbaland' is not in the graph"):
        resolve_entities(kg, ("Timbaland",))


def test_a_malformed_setting_is_bad_input(monkeypatch) -> None:
    monkeypatch.setenv("PANDORA_KG_LABEL_PREDICATES", "singer name")
    with pytest.raises(BadInputError, match="PANDORA_KG_LABEL_PREDICATES: 'singer name'"):
        load_source(str(CONCERTS))


def test_the_setting_names_entities_on_an_endpoint(monkeypatch, sparql_endpoint) -> None:
    """A local SPARQL endpoint (rdflib behind http.server on 127.0.0.1)."""
    monkeypatch.setenv("PANDORA_KG_LABEL_PREDICATES", f"{ONTOP}singer#name")
    kg = load_source(sparql_endpoint(Graph().parse(CONCERTS))).handle
    assert resolve_entities(kg, ("Timbaland",)) == (TIMBALAND,)


def test_detection_rules(tmp_path) -> None:
    path = tmp_path / "rules.ttl"
    path.write_text(
        "@prefix e: <http://e/> .\n"
        "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        'e:o1 a e:owners ; e:first_name "Ann" ; e:last_name "Lee" .\n'
        'e:c1 a e:contestants ; e:contestant_name "Kate" ; e:votes_name "x" .\n'
        'e:k1 a e:course ; e:course "Math" ; e:room "B2" .\n'
        'e:t1 a e:tv_channel ; e:series_name "Sky" .\n'
        'e:l1 a e:labelled ; rdfs:label "Has one" ; e:name "Ignored" .\n'
        "e:r1 a e:refers ; e:name e:k1 .\n"
    )
    kg = load_source(str(path)).handle
    detected = [p.value for p in detect_label_predicates(kg.schema())]
    assert detected == ["http://e/contestant_name", "http://e/course", "http://e/series_name"]


def test_a_question_about_an_unlabelled_kg_is_answered_in_the_executor() -> None:
    code = (
        "sung = singer_in_concert[singer_in_concert.ref_singer_id == 'Timbaland']\n"
        "result = sung.ref_concert_id.nunique()"
    )
    outcome = execute(
        code,
        Workspace.of([load_source(str(CONCERTS))]),
        "pandas",
        focus=Focus(question=QUESTION, hops=2),
    )
    assert outcome.error is None, outcome.error
    assert [[render_value(value) for value in row] for row in outcome.result] == [["2"]]
