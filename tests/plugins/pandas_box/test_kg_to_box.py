"""KG-to-BOX checked against BOXes computed by hand for a small graph."""

from __future__ import annotations

import pandas as pd
import pytest

from plugins import Focus, ForeignKey, load_source
from plugins.errors import BadInputError
from plugins.pandas_box.kg_to_box import kg_to_boxes

SMALL = """\
@prefix ex: <http://e/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:f1 a ex:Film ; rdfs:label "Alpha" ; ex:director ex:p1 ; ex:genre "drama" , "noir" ;
      ex:year "1950"^^xsd:integer ; ex:cast ex:p1 , ex:p2 .
ex:f2 a ex:Film ; rdfs:label "Beta" ; ex:director ex:p2 ; ex:year "1960"^^xsd:integer .
ex:p1 a ex:Person ; rdfs:label "Ann" ; ex:born "1920-01-02"^^xsd:date .
ex:p2 a ex:Person ; rdfs:label "Bob" .
ex:x ex:linked ex:f1 .
"""


@pytest.fixture
def small_source(tmp_path):
    path = tmp_path / "small.ttl"
    path.write_text(SMALL)
    return load_source(str(path))


def test_boxes_match_the_hand_computed_ones(small_source) -> None:
    boxes = {b.name: b for b in kg_to_boxes(small_source, Focus(entities=("Alpha",), hops=2))}
    assert sorted(boxes) == ["entity", "film", "film_cast", "film_genre", "person"]
    film = pd.DataFrame(
        {
            # one row per film: the multi-valued cast and genre have BOXes of their own
            "film": ["Alpha", "Beta"],
            "director": ["Ann", "Bob"],
            # Beta is reached in the second hop: its year, one hop further, is
            # filled in from the KG (an attribute of the edge of the radius)
            "year": pd.array([1950, 1960], dtype="Int64"),
        }
    )
    pd.testing.assert_frame_equal(boxes["film"].frame, film, check_dtype=False)
    assert boxes["film"].frame["year"].dtype == "Int64"
    assert boxes["film_cast"].frame.to_dict("list") == {
        "film": ["Alpha", "Alpha"],
        "cast": ["Ann", "Bob"],
    }
    assert boxes["film_genre"].frame.to_dict("list") == {
        "film": ["Alpha", "Alpha"],
        "genre": ["drama", "noir"],
    }
    person = boxes["person"].frame
    assert list(person.columns) == ["person", "born"]
    assert person.person.tolist() == ["Ann", "Bob"]
    assert person.born.iloc[0] == pd.Timestamp("1920-01-02") and pd.isna(person.born.iloc[1])
    assert str(person.born.dtype).startswith("datetime64")
    assert boxes["entity"].frame.to_dict("list") == {"entity": ["x"], "linked": ["Alpha"]}
    assert boxes["film"].foreign_keys == [ForeignKey("director", "person", "person")]
    assert boxes["film_cast"].foreign_keys == [
        ForeignKey("film", "film", "film"),
        ForeignKey("cast", "person", "person"),
    ]
    assert boxes["film_genre"].foreign_keys == [ForeignKey("film", "film", "film")]
    assert boxes["entity"].foreign_keys == [ForeignKey("linked", "film", "film")]
    assert boxes["film"].origin == "small"


def test_a_relation_is_multi_valued_by_the_whole_graph_whatever_the_subgraph(small_source):
    """Beta has one director and no cast; `cast` is still a BOX of its own
    (Alpha has two), so a program's names do not depend on the focus."""
    boxes = {b.name: b for b in kg_to_boxes(small_source, Focus(entities=("Beta",), hops=1))}
    assert "film_cast" not in boxes  # no cast edge in this subgraph: no BOX
    assert list(boxes["film"].frame.columns) == ["film", "director", "year"]
    wider = {b.name: b for b in kg_to_boxes(small_source, Focus(entities=("Bob",), hops=1))}
    assert list(wider["film"].frame.columns) == ["film", "director", "year"]
    assert wider["film_cast"].frame.to_dict("list") == {"film": ["Alpha"], "cast": ["Bob"]}


def test_entity_of_two_types_is_in_both_boxes_and_their_type_fields_refer(tmp_path) -> None:
    path = tmp_path / "two.ttl"
    path.write_text(
        "@prefix ex: <http://e/> .\n"
        'ex:a a ex:Director , ex:Actor ; ex:born "1900" .\n'
        "ex:b a ex:Actor ; ex:knows ex:a .\n"
    )
    boxes = {b.name: b for b in kg_to_boxes(load_source(str(path)), Focus(entities=("a",)))}
    assert boxes["director"].frame.director.tolist() == ["a"]
    assert boxes["actor"].frame.actor.tolist() == ["a", "b"]
    assert ForeignKey("director", "actor", "actor") in boxes["director"].foreign_keys
    assert ForeignKey("actor", "director", "director") in boxes["actor"].foreign_keys


def test_a_question_naming_no_entity_sees_the_whole_small_graph(small_source, monkeypatch) -> None:
    """'How many films are there?' is about every film: with no entity to start
    from, a small in-memory KG is shown whole (every typed entity and its
    relations); a bigger one still asks for the topic entities."""
    question = Focus(question="How many films are there?")
    boxes = {b.name: b for b in kg_to_boxes(small_source, question)}
    assert sorted(boxes) == ["entity", "film", "film_cast", "film_genre", "person"]
    assert boxes["film"].frame["film"].tolist() == ["Alpha", "Beta"]
    assert sorted(boxes["person"].frame["person"]) == ["Ann", "Bob"]
    assert set(boxes["entity"].frame["linked"]) == {"Alpha"}  # ex:x is reached by its edge
    from plugins.knowledge_graph import subgraph

    monkeypatch.setattr(subgraph, "WHOLE_GRAPH_MAX_TRIPLES", 5)
    with pytest.raises(BadInputError, match="no entity of the question"):
        kg_to_boxes(small_source, Focus(question="How many films are there, really?"))
