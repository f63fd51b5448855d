"""Real rdflib graphs written by the tests, and a local SPARQL endpoint serving them."""

from __future__ import annotations

import threading
import time
import urllib.parse
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from rdflib import RDF, RDFS, XSD, Dataset, Graph, Literal, Namespace, URIRef

FB = Namespace("http://rdf.freebase.com/ns/")
WD = Namespace("http://www.wikidata.org/entity/")
WDT = Namespace("http://www.wikidata.org/prop/direct/")
FILMS = Path(__file__).resolve().parents[3] / "examples" / "films.ttl"


def freebase_graph() -> Graph:
    """Freebase style: m.* IRIs named by type.object.name, dotted relations,
    marriages as unnamed mediator (CVT) nodes."""
    g = Graph()
    name = FB["type.object.name"]
    people = {
        "m.obama": "Barack Obama",
        "m.michelle": "Michelle Obama",
        "m.liz": "Elizabeth Taylor",
        "m.burton": "Richard Burton",
        "m.fisher": "Eddie Fisher",
    }
    for mid, label in people.items():
        g.add((FB[mid], name, Literal(label, lang="en")))
        g.add((FB[mid], RDF.type, FB["people.person"]))
    places = {
        "m.chicago": ("Chicago", "location.citytown", "m.illinois"),
        "m.illinois": ("Illinois", "location.us_state", "m.usa"),
        "m.honolulu": ("Honolulu", "location.citytown", "m.hawaii"),
        "m.hawaii": ("Hawaii", "location.us_state", "m.usa"),
        "m.usa": ("United States of America", "location.country", None),
    }
    for mid, (label, kind, container) in places.items():
        g.add((FB[mid], name, Literal(label, lang="en")))
        g.add((FB[mid], RDF.type, FB[kind]))
        if container:
            g.add((FB[mid], FB["location.location.containedby"], FB[container]))
    g.add((FB["m.obama"], FB["people.person.place_of_birth"], FB["m.honolulu"]))
    g.add((FB["m.michelle"], FB["people.person.place_of_birth"], FB["m.chicago"]))
    marriages = [
        ("m.cvt1", "m.obama", "m.michelle", "1992-10-03"),
        ("m.cvt2", "m.liz", "m.burton", "1964-03-15"),
        ("m.cvt3", "m.liz", "m.burton", "1975-10-10"),
        ("m.cvt4", "m.liz", "m.fisher", "1959-05-12"),
    ]
    for cvt, first, second, since in marriages:
        g.add((FB[cvt], RDF.type, FB["people.marriage"]))
        for person in (first, second):
            g.add((FB[person], FB["people.person.spouse_s"], FB[cvt]))
            g.add((FB[cvt], FB["people.marriage.spouse"], FB[person]))
        g.add((FB[cvt], FB["people.marriage.from"], Literal(since, datatype=XSD.date)))
    return g


def wikidata_graph() -> Graph:
    """Wikidata style: Q/P ids, labels in several languages, no rdf:type
    (instance-of is an ordinary relation), two entities labelled "Paris"."""
    g = Graph()
    labels = {
        "Q7374": {"en": "Alfred Hitchcock", "de": "Alfred Hitchcock"},
        "Q202548": {"en": "Vertigo", "de": "Vertigo – Aus dem Reich der Toten"},
        "Q215340": {"en": "Rebecca", "de": "Rebecca"},
        "Q223139": {"en": "Psycho", "de": "Psycho"},
        "Q1512": {"en": "Leytonstone", "de": "Leytonstone"},
        "Q145": {"en": "United Kingdom", "de": "Vereinigtes Königreich"},
        "Q30": {"en": "United States", "de": "Vereinigte Staaten"},
        "Q11424": {"en": "film", "de": "Film"},
        "Q90": {"en": "Paris", "de": "Paris"},
        "Q830149": {"en": "Paris", "de": "Paris (Texas)"},
        "Q142": {"en": "France", "de": "Frankreich"},
    }
    for qid, by_language in labels.items():
        for language, text in by_language.items():
            g.add((WD[qid], RDFS.label, Literal(text, lang=language)))
    for pid, text in {
        "P57": "director",
        "P19": "place of birth",
        "P17": "country",
        "P27": "country of citizenship",
        "P31": "instance of",
        "P577": "publication date",
        "P2047": "duration",
    }.items():
        g.add((WDT[pid], RDFS.label, Literal(text, lang="en")))
    films = {
        "Q202548": ("1958-05-09", 128),
        "Q215340": ("1940-03-21", 130),
        "Q223139": ("1960-06-16", 109),
    }
    for qid, (date, minutes) in films.items():
        g.add((WD[qid], WDT.P31, WD.Q11424))
        g.add((WD[qid], WDT.P57, WD.Q7374))
        g.add((WD[qid], WDT.P577, Literal(f"{date}T00:00:00Z", datatype=XSD.dateTime)))
        g.add((WD[qid], WDT.P2047, Literal(minutes, datatype=XSD.decimal)))
    g.add((WD.Q7374, WDT.P19, WD.Q1512))
    g.add((WD.Q7374, WDT.P27, WD.Q145))
    g.add((WD.Q7374, WDT.P27, WD.Q30))
    g.add((WD.Q1512, WDT.P17, WD.Q145))
    g.add((WD.Q90, WDT.P17, WD.Q142))
    g.add((WD.Q830149, WDT.P17, WD.Q30))
    return g


def films_graph() -> Graph:
    """The bundled examples/films.ttl, parsed by rdflib."""
    return Graph().parse(FILMS)


GRAPHS = {"films": films_graph, "freebase": freebase_graph, "wikidata": wikidata_graph}


@pytest.fixture
def rdflib_graph():
    """Build a named test graph (films, freebase, wikidata) as an rdflib Graph."""
    return lambda name: GRAPHS[name]()


@pytest.fixture
def write_graph(tmp_path):
    """Write a named test graph as Turtle; returns the path."""

    def write(name: str, extension: str = ".ttl", rdflib_format: str = "turtle") -> Path:
        path = tmp_path / f"{name}{extension}"
        graph = GRAPHS[name]()
        if rdflib_format in ("nquads", "trix"):  # quad formats: put it in a named graph
            dataset = Dataset()
            named = dataset.graph(URIRef("http://example.org/graphs/test"))
            for triple in graph:
                named.add(triple)
            graph = dataset
        graph.serialize(path, format=rdflib_format)
        return path

    return write


class _SparqlHandler(BaseHTTPRequestHandler):
    graph: Graph
    mode: str = "ok"

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        if self.mode == "slow":
            time.sleep(2)
        if self.mode == "error":
            self._reply(500, b"Query evaluation failed: out of memory", "text/plain")
            return
        if self.mode == "garbage":
            self._reply(200, b"<html>not sparql</html>", "text/html")
            return
        body = self.graph.query(form["query"][0]).serialize(format="json")
        self._reply(200, body, "application/sparql-results+json")

    def _reply(self, status: int, body: bytes, content_type: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except BrokenPipeError:
            pass

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def sparql_endpoint() -> Iterator:
    """Start a SPARQL endpoint on 127.0.0.1 answering from an rdflib graph:
    `sparql_endpoint(graph, mode="ok"|"error"|"slow"|"garbage")` -> sparql+http URL."""
    servers: list[ThreadingHTTPServer] = []

    def start(graph: Graph, mode: str = "ok") -> str:
        handler = type("Handler", (_SparqlHandler,), {"graph": graph, "mode": mode})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"sparql+http://127.0.0.1:{server.server_address[1]}/sparql"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
