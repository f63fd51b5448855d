"""2- and 3-hop questions: the pandas merge program over the BOXes, the
NetworkX program over the graph and the SPARQL query through rdflib return
the same answers, on films.ttl, a Freebase-style and a Wikidata-style graph.

The pandas and NetworkX programs are written by the test (not generated), so
they run here directly on the objects the representations hand to code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import pytest

from plugins import Focus, Workspace, get_registry, load_source
from plugins.pandas_box.kg_to_box import kg_to_boxes

PREFIXES = """
PREFIX ex: <http://example.org/films/>
PREFIX fb: <http://rdf.freebase.com/ns/>
PREFIX wd: <http://www.wikidata.org/entity/>
PREFIX wdt: <http://www.wikidata.org/prop/direct/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
"""


@dataclass
class Case:
    graph: str
    entities: tuple[str, ...]
    hops: int
    sparql: str
    pandas: Callable[[dict[str, pd.DataFrame]], set]
    networkx: Callable[[object], set]
    question: str | None = None


def out(graph, node, relation) -> list:
    return [
        tail for _, tail, data in graph.out_edges(node, data=True) if data["relation"] == relation
    ]


def into(graph, node, relation) -> list:
    return [
        head for head, _, data in graph.in_edges(node, data=True) if data["relation"] == relation
    ]


CASES = {
    "films: nationalities of the director of Vertigo (2 hops)": Case(
        "films",
        ("Vertigo",),
        2,
        """SELECT ?n WHERE { ex:Vertigo ex:directedBy ?d . ?d ex:nationality ?c .
           ?c rdfs:label ?n FILTER(lang(?n) = "en") }""",
        lambda b: set(
            b["film"][b["film"].film == "Vertigo"]
            .merge(b["person_nationality"], left_on="directed_by", right_on="person")
            .nationality
        ),
        lambda g: {c for d in out(g, "Vertigo", "directed_by") for c in out(g, d, "nationality")},
    ),
    "films: films sharing an actor with Notorious (2 hops)": Case(
        "films",
        ("Notorious",),
        2,
        """SELECT ?n WHERE { ex:Notorious ex:starring ?a . ?f ex:starring ?a .
           FILTER(?f != ex:Notorious) ?f rdfs:label ?n FILTER(lang(?n) = "en") }""",
        lambda b: set(
            b["film_starring"][b["film_starring"].film == "Notorious"][["starring"]]
            .merge(b["film_starring"], on="starring")
            .query("film != 'Notorious'")
            .film
        ),
        lambda g: (
            {f for a in out(g, "Notorious", "starring") for f in into(g, a, "starring")}
            - {"Notorious"}
        ),
    ),
    "films: awards of Fellini's films, through mediator nodes (3 hops)": Case(
        "films",
        ("Federico Fellini",),
        3,
        """SELECT ?n WHERE { ?f ex:directedBy ex:FedericoFellini . ?f ex:won ?w .
           ?w ex:award ?a . ?a rdfs:label ?n }""",
        lambda b: set(
            b["film"][b["film"].directed_by == "Federico Fellini"]
            .merge(b["award_win"], left_on="won", right_on="award_win")
            .award
        ),
        lambda g: {
            a
            for f in into(g, "Federico Fellini", "directed_by")
            for w in out(g, f, "won")
            for a in out(g, w, "award")
        },
    ),
    "films: countries of Bergman films released before 1945 (2 hops, dates)": Case(
        "films",
        ("Ingrid Bergman",),
        2,
        """SELECT ?n WHERE { ?f ex:starring ex:IngridBergman ; ex:releaseDate ?d ; ex:country ?c .
           FILTER(?d < "1945-01-01"^^xsd:date) ?c rdfs:label ?n }""",
        lambda b: set(
            b["film_starring"]
            .query("starring == 'Ingrid Bergman'")
            .merge(b["film"], on="film")
            .pipe(lambda f: f[f.release_date < pd.Timestamp("1945-01-01")])
            .merge(b["film_country"], on="film")
            .country
        ),
        lambda g: {
            c
            for f in into(g, "Ingrid Bergman", "starring")
            if any(str(d) < "1945-01-01" for d in out(g, f, "release_date"))
            for c in out(g, f, "country")
        },
    ),
    "films: linked from a question, Hitchcock films with James Stewart (2 hops)": Case(
        "films",
        (),
        2,
        """SELECT ?n WHERE { ?f ex:directedBy ex:AlfredHitchcock ; ex:starring ex:JamesStewart .
           ?f rdfs:label ?n }""",
        lambda b: set(
            b["film"][b["film"].directed_by == "Alfred Hitchcock"]
            .merge(b["film_starring"].query("starring == 'James Stewart'"), on="film")
            .film
        ),
        lambda g: (
            set(into(g, "Alfred Hitchcock", "directed_by"))
            & set(into(g, "James Stewart", "starring"))
        ),
        question="Which films directed by Alfred Hitchcock star James Stewart?",
    ),
    "freebase: spouses of Barack Obama through the marriage CVT (2 hops)": Case(
        "freebase",
        ("Barack Obama",),
        2,
        """SELECT ?n WHERE { fb:m.obama fb:people.person.spouse_s ?m .
           ?m fb:people.marriage.spouse ?s FILTER(?s != fb:m.obama)
           ?s fb:type.object.name ?n }""",
        lambda b: (
            set(
                b["people_marriage_spouse"][
                    b["people_marriage_spouse"].people_marriage.isin(
                        b["people_person_spouse_s"]
                        .query("people_person == 'Barack Obama'")
                        .people_person_spouse_s
                    )
                ].people_marriage_spouse
            )
            - {"Barack Obama"}
        ),
        lambda g: (
            {
                s
                for m in out(g, "Barack Obama", "people_person_spouse_s")
                for s in out(g, m, "people_marriage_spouse")
            }
            - {"Barack Obama"}
        ),
    ),
    "freebase: birthplace of Obama's spouse (3 hops)": Case(
        "freebase",
        ("Barack Obama",),
        3,
        """SELECT ?n WHERE { fb:m.obama fb:people.person.spouse_s ?m .
           ?m fb:people.marriage.spouse ?s FILTER(?s != fb:m.obama)
           ?s fb:people.person.place_of_birth ?p . ?p fb:type.object.name ?n }""",
        lambda b: set(
            b["people_person_spouse_s"]
            .query("people_person == 'Barack Obama'")[["people_person_spouse_s"]]
            .merge(
                b["people_marriage_spouse"],
                left_on="people_person_spouse_s",
                right_on="people_marriage",
            )
            .query("people_marriage_spouse != 'Barack Obama'")
            .merge(b["people_person"], left_on="people_marriage_spouse", right_on="people_person")
            .people_person_place_of_birth
        ),
        lambda g: {
            p
            for m in out(g, "Barack Obama", "people_person_spouse_s")
            for s in out(g, m, "people_marriage_spouse")
            if s != "Barack Obama"
            for p in out(g, s, "people_person_place_of_birth")
        },
    ),
    "freebase: how often Elizabeth Taylor married Richard Burton (2 hops, count)": Case(
        "freebase",
        ("Elizabeth Taylor",),
        2,
        """SELECT (COUNT(DISTINCT ?m) AS ?n) WHERE { fb:m.liz fb:people.person.spouse_s ?m .
           ?m fb:people.marriage.spouse fb:m.burton }""",
        lambda b: {
            b["people_marriage_spouse"]
            .query("people_marriage_spouse == 'Richard Burton'")
            .people_marriage.nunique()
        },
        lambda g: {
            len(
                {
                    m
                    for m in out(g, "Elizabeth Taylor", "people_person_spouse_s")
                    if "Richard Burton" in out(g, m, "people_marriage_spouse")
                }
            )
        },
    ),
    "wikidata: country of the birthplace of Vertigo's director (3 hops)": Case(
        "wikidata",
        ("Vertigo",),
        3,
        """SELECT ?n WHERE { wd:Q202548 wdt:P57 ?d . ?d wdt:P19 ?p . ?p wdt:P17 ?c .
           ?c rdfs:label ?n FILTER(lang(?n) = "en") }""",
        lambda b: set(
            b["entity"]
            .query("entity == 'Vertigo'")[["director"]]
            .merge(b["entity"], left_on="director", right_on="entity")[["place_of_birth"]]
            .merge(b["entity"], left_on="place_of_birth", right_on="entity")
            .country
        ),
        lambda g: {
            c
            for d in out(g, "Vertigo", "director")
            for p in out(g, d, "place_of_birth")
            for c in out(g, p, "country")
        },
    ),
    "wikidata: the director's films before 1950 (3 hops: dates are a hop away)": Case(
        "wikidata",
        ("Vertigo",),
        3,
        """SELECT ?n WHERE { wd:Q202548 wdt:P57 ?d . ?f wdt:P57 ?d ; wdt:P577 ?t .
           FILTER(?t < "1950-01-01T00:00:00Z"^^xsd:dateTime)
           ?f rdfs:label ?n FILTER(lang(?n) = "en") }""",
        lambda b: set(
            b["entity"]
            .query("entity == 'Vertigo'")[["director"]]
            .merge(b["entity"], on="director")
            .pipe(lambda f: f[f.publication_date < pd.Timestamp("1950-01-01", tz="UTC")])
            .entity
        ),
        lambda g: {
            f
            for d in out(g, "Vertigo", "director")
            for f in into(g, d, "director")
            if any(t.year < 1950 for t in out(g, f, "publication_date"))
        },
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_pandas_networkx_and_sparql_agree(case: Case, write_graph, rdflib_graph) -> None:
    path = write_graph(case.graph)
    sparql = {str(row[0]) for row in rdflib_graph(case.graph).query(PREFIXES + case.sparql)}
    source = load_source(str(path))
    focus = Focus(question=case.question, entities=case.entities, hops=case.hops)
    boxes = {box.name: box.frame for box in kg_to_boxes(source, focus)}
    namespace = get_registry().representation("networkx").namespace(Workspace.of([source]), focus)
    assert sparql, "the SPARQL query must have answers for the comparison to mean something"
    assert {str(v) for v in case.pandas(boxes)} == sparql
    assert {str(v) for v in case.networkx(namespace["graph"])} == sparql
