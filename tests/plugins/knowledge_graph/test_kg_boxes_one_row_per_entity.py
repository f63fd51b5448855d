"""KG-to-BOX holds each entity once, with the attributes of the entities at
the edge of the radius filled in: checked against rdflib's reading of the
same files (issue 26: `film` around Vertigo held Vertigo twice and four
films with a null runtime, so "which film is longest" was answered wrong)."""

from __future__ import annotations

import pandas as pd
import pytest
from rdflib import Graph, Literal, Namespace
from rdflib.namespace import RDF, RDFS

from plugins import Focus, load_source
from plugins.pandas_box.kg_to_box import kg_to_boxes
from tests.conftest import EXAMPLES

EX = Namespace("http://example.org/films/")


@pytest.fixture(scope="module")
def films_rdflib() -> Graph:
    graph = Graph()
    graph.parse(EXAMPLES / "films.ttl")
    return graph


@pytest.fixture(scope="module")
def vertigo_boxes():
    source = load_source(str(EXAMPLES / "films.ttl"))
    return {box.name: box for box in kg_to_boxes(source, Focus(entities=("Vertigo",), hops=2))}


def english_label(graph: Graph, node) -> str:
    labels = [o for o in graph.objects(node, RDFS.label) if o.language in ("en", None)]
    return str(sorted(labels)[0])


def by_label(graph: Graph, kind) -> dict[str, object]:
    return {english_label(graph, node): node for node in graph.subjects(RDF.type, kind)}


def test_every_film_is_one_row(vertigo_boxes):
    film = vertigo_boxes["film"].frame
    assert film["film"].is_unique
    assert "Vertigo" in set(film["film"])


def test_edge_films_have_their_runtime_and_the_longest_film_is_right(vertigo_boxes, films_rdflib):
    film = vertigo_boxes["film"].frame
    films = by_label(films_rdflib, EX.Film)
    for name, runtime in zip(film["film"], film["runtime_minutes"], strict=True):
        expected = films_rdflib.value(films[name], EX.runtime)
        assert (None if pd.isna(runtime) else int(runtime)) == (
            None if expected is None else expected.toPython()
        ), name
    assert film["runtime_minutes"].notna().all()  # every film of films.ttl has a runtime
    longest = max(
        film["film"], key=lambda name: films_rdflib.value(films[name], EX.runtime).toPython()
    )
    assert film.loc[film["runtime_minutes"].idxmax(), "film"] == longest


def test_multi_valued_relations_are_boxes_of_their_own(vertigo_boxes, films_rdflib):
    starring = vertigo_boxes["film_starring"].frame
    assert not starring.duplicated().any()
    films = by_label(films_rdflib, EX.Film)
    expected = {
        english_label(films_rdflib, actor)
        for actor in films_rdflib.objects(EX.Vertigo, EX.starring)
    }
    assert set(starring.loc[starring["film"] == "Vertigo", "starring"]) == expected
    pairs = {
        (name, english_label(films_rdflib, actor))
        for name, node in films.items()
        for actor in films_rdflib.objects(node, EX.starring)
    }
    assert set(map(tuple, starring[["film", "starring"]].values.tolist())) <= pairs
    assert "starring" not in vertigo_boxes["film"].frame.columns


MADE_UP = """\
@prefix ex: <http://made.up/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:lake a ex:Lake ; rdfs:label "Blue Lake" ; ex:feeds ex:r1 , ex:r2 ; ex:area "12.5"^^xsd:decimal .
ex:r1 a ex:River ; rdfs:label "North River" ; ex:length "40"^^xsd:integer ; ex:tag "cold" , "fast" .
ex:r2 a ex:River ; rdfs:label "South River" ; ex:length "75"^^xsd:integer ; ex:flowsInto ex:sea .
ex:sea a ex:Sea ; rdfs:label "Grey Sea" ; ex:depth "300"^^xsd:integer .
"""


def test_a_made_up_graph_at_one_hop_agrees_with_rdflib(tmp_path):
    path = tmp_path / "water.ttl"
    path.write_text(MADE_UP)
    graph = Graph()
    graph.parse(path)
    boxes = {
        b.name: b
        for b in kg_to_boxes(load_source(str(path)), Focus(entities=("Blue Lake",), hops=1))
    }
    river = boxes["river"].frame
    made = Namespace("http://made.up/")
    rivers = {english_label(graph, r): r for r in graph.subjects(RDF.type, made.River)}
    assert river["river"].tolist() == sorted(rivers)  # once each, though r1 has two tags
    assert river["length"].tolist() == [
        graph.value(rivers[n], made.length).toPython() for n in river["river"]
    ]
    tags = boxes["river_tag"].frame
    assert sorted(map(tuple, tags.values.tolist())) == sorted(
        (english_label(graph, r), str(t))
        for r in rivers.values()
        for t in graph.objects(r, made.tag)
    )
    # the sea is two hops away: South River's edge to it is not an attribute
    assert "flows_into" not in river.columns and "sea" not in boxes
    assert boxes["lake"].frame.to_dict("list") == {
        "lake": ["Blue Lake"],
        "area": [float(graph.value(made.lake, made.area).toPython())],
    }
    assert isinstance(graph.value(made.lake, made.area), Literal)
