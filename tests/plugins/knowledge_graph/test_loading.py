"""Loading KGs from every supported format, and refusing bad ones clearly."""

from __future__ import annotations

import datetime as dt

import networkx as nx
import pytest
from pyoxigraph import Literal, NamedNode

from plugins import BadInputError, Focus, load_source
from plugins.knowledge_graph.subgraph import focus_subgraph
from plugins.knowledge_graph.terms import literal_value

RDF_FORMATS = {
    ".ttl": "turtle",
    ".nt": "nt",
    ".nq": "nquads",
    ".rdf": "xml",
    ".jsonld": "json-ld",
    ".trig": "trig",
    ".n3": "n3",
    ".trix": "trix",
    ".hext": "hext",
}


@pytest.mark.parametrize("extension", RDF_FORMATS)
def test_every_rdf_format_loads_the_same_graph(extension, write_graph, rdflib_graph) -> None:
    path = write_graph("films", extension, RDF_FORMATS[extension])
    source = load_source(str(path))
    assert (source.kind, source.plugin, source.name) == ("kg", "rdf", "films")
    assert len(source.handle) == len(rdflib_graph("films"))
    subgraph = focus_subgraph(source.handle, Focus(entities=("Vertigo",), hops=1))
    shown = {subgraph.names.entities[n] for n in subgraph.entities}
    assert {"Vertigo", "Alfred Hitchcock", "James Stewart", "Kim Novak"} <= shown


def test_triples_tsv_with_names_literals_and_header(tmp_path) -> None:
    path = tmp_path / "kg.tsv"
    path.write_text(
        "head\trelation\ttail\n"
        "Il cavaliere misterioso\tfilm.film.written_by\tDino Verde\n"
        "Il cavaliere misterioso\tfilm.film.release_year\t1948\n"
        "Il cavaliere misterioso\tfilm.film.rating\t6.5\n"
        'Dino Verde\tpeople.person.motto\t"Ridere, sempre"@it\n'
        "Dino Verde\tpeople.person.born\t1922-05-08\n"
    )
    source = load_source(str(path), plugin="triples")
    subgraph = focus_subgraph(source.handle, Focus(entities=("Dino Verde",), hops=1))
    values = {
        (subgraph.names.relations[p], literal_value(o) if isinstance(o, Literal) else o.value)
        for _, p, o in subgraph.triples
    }
    assert ("people_person_born", dt.date(1922, 5, 8)) in values
    assert ("people_person_motto", "Ridere, sempre") in values
    assert any(relation == "film_film_written_by" for relation, _ in values)
    film = focus_subgraph(source.handle, Focus(entities=("Il cavaliere misterioso",), hops=1))
    literals = {literal_value(o) for _, _, o in film.triples if isinstance(o, Literal)}
    assert literals == {1948, 6.5}


def test_triples_tsv_with_a_wrong_row_names_the_line(tmp_path) -> None:
    path = tmp_path / "kg.tsv"
    path.write_text("a\tb\tc\na\tb\n")
    with pytest.raises(BadInputError, match=r"kg.tsv: line 2 has 2 tab-separated fields"):
        load_source(str(path), plugin="triples")


@pytest.mark.parametrize("extension", [".graphml", ".gml"])
def test_graphml_and_gml_through_networkx(tmp_path, extension) -> None:
    graph = nx.MultiDiGraph()
    name = "label" if extension == ".graphml" else "name"  # GML keeps `label` as the node id
    graph.add_node("vertigo", **{name: "Vertigo"}, type="film", runtime=128)
    graph.add_node("hitchcock", **{name: "Alfred Hitchcock"}, type="person")
    graph.add_edge("vertigo", "hitchcock", relation="directed_by")
    path = tmp_path / f"kg{extension}"
    (nx.write_graphml if extension == ".graphml" else nx.write_gml)(graph, path)
    source = load_source(str(path))
    assert source.plugin == "graphml"
    subgraph = focus_subgraph(source.handle, Focus(entities=("Vertigo",), hops=1))
    names = subgraph.names
    edges = {
        (
            names.entities[s],
            names.relations[p],
            literal_value(o) if isinstance(o, Literal) else names.entities[o],
        )
        for s, p, o in subgraph.triples
    }
    assert edges == {("Vertigo", "directed_by", "Alfred Hitchcock"), ("Vertigo", "runtime", 128)}
    assert names.types[next(iter(subgraph.topic_entities))] == ("film",)


def test_malformed_turtle_names_the_line(tmp_path) -> None:
    path = tmp_path / "bad.ttl"
    path.write_text(
        '@prefix ex: <http://e/> .\nex:a ex:b ex:c .\nex:a ex:b "open ;\nex:d ex:e ex:f .\n'
    )
    with pytest.raises(BadInputError, match=r"bad.ttl: malformed Turtle at line 3"):
        load_source(str(path))


def test_empty_graph_and_missing_file_are_bad_input(tmp_path) -> None:
    empty = tmp_path / "empty.ttl"
    empty.write_text("@prefix ex: <http://e/> .\n")
    with pytest.raises(BadInputError, match="has no triples"):
        load_source(str(empty))
    with pytest.raises(BadInputError, match="no such file"):
        load_source(str(tmp_path / "missing.ttl"), plugin="rdf")


def test_literals_keep_datatypes_and_unknown_ones_stay_text() -> None:
    xsd = "http://www.w3.org/2001/XMLSchema#"

    def value(text: str, datatype: str):
        return literal_value(Literal(text, datatype=NamedNode(datatype)))

    assert value("42", xsd + "integer") == 42
    assert value("2.5", xsd + "decimal") == 2.5
    assert value("true", xsd + "boolean") is True
    assert value("1958-05-09", xsd + "date") == dt.date(1958, 5, 9)
    assert value("1958-05-09T10:00:00Z", xsd + "dateTime").tzinfo is not None
    assert value("1944", xsd + "gYear") == 1944
    assert value("1.37:1", "http://example.org/films/ratio") == "1.37:1"
    assert value("abc", xsd + "integer") == "abc"
    assert literal_value(Literal("Roma", language="it")) == "Roma"
