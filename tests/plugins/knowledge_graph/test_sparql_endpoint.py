"""The SPARQL-endpoint path, against a local endpoint the test starts
(an HTTP server on 127.0.0.1 answering SPARQL from an rdflib graph)."""

from __future__ import annotations

import pandas as pd
import pytest
from pyoxigraph import NamedNode

from plugins import BadInputError, Focus, load_source
from plugins.knowledge_graph.subgraph import ExtractionLimits, extract_subgraph, focus_subgraph
from plugins.pandas_box.kg_to_box import kg_to_boxes

FOCI = [
    ("films", Focus(entities=("Alfred Hitchcock",), hops=2)),
    ("films", Focus(question="Which films directed by Alfred Hitchcock star James Stewart?")),
    ("freebase", Focus(entities=("Barack Obama",), hops=3)),
    ("wikidata", Focus(question="Where was the director of Vertigo born?", hops=3)),
]


@pytest.mark.parametrize(("graph", "focus"), FOCI, ids=lambda f: getattr(f, "hops", f))
def test_endpoint_and_file_extract_the_same_boxes(
    graph, focus, sparql_endpoint, rdflib_graph, write_graph
) -> None:
    # films.ttl has blank nodes, which an endpoint reaches but cannot expand:
    # its foci stop before expanding one.
    endpoint = load_source(sparql_endpoint(rdflib_graph(graph)))
    local = load_source(str(write_graph(graph)))
    assert (endpoint.kind, endpoint.plugin) == ("kg", "sparql")
    remote_boxes = kg_to_boxes(endpoint, focus)
    local_boxes = kg_to_boxes(local, focus)
    # a relation is multi-valued (a BOX of its own) by the whole file, but by
    # the subgraph at an endpoint: the layout may differ, the facts may not
    assert type_boxes(remote_boxes) == type_boxes(local_boxes)
    assert facts(remote_boxes) == facts(local_boxes)


def type_boxes(boxes) -> list[str]:
    return [box.name for box in boxes if box.frame.columns[0] == box.name]


def facts(boxes) -> set[tuple]:
    """(type, entity, field, value) of every cell, from an entity's row or
    from a multi-valued relation's BOX (blank nodes aside: an endpoint
    cannot name them)."""
    found = set()
    for box in boxes:
        kind = box.frame.columns[0]
        if kind == "award_win":
            continue
        for row in box.frame.astype(object).itertuples(index=False):
            for column, value in zip(box.frame.columns[1:], row[1:], strict=True):
                if not pd.isna(value):
                    found.add((kind, row[0], column, value))
    return found


def test_capped_hops_pick_the_same_triples_in_the_same_order(sparql_endpoint, rdflib_graph) -> None:
    endpoint = load_source(sparql_endpoint(rdflib_graph("films"))).handle
    local = load_source("examples/films.ttl").handle
    limits = ExtractionLimits(max_relations=3, max_triples_per_hop=7)
    topic = (NamedNode("http://example.org/films/USA"),)
    question = "Which people of this country directed films?"
    remote = extract_subgraph(endpoint, topic, 2, question, limits)
    here = extract_subgraph(local, topic, 2, question, limits)
    assert remote.truncated and here.truncated
    assert remote.triples == here.triples


def test_unknown_entity_at_an_endpoint(sparql_endpoint, rdflib_graph) -> None:
    endpoint = load_source(sparql_endpoint(rdflib_graph("films")))
    with pytest.raises(BadInputError, match="entity 'Nobody' is not in the graph"):
        focus_subgraph(endpoint.handle, Focus(entities=("Nobody",)))


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("error", "SPARQL endpoint answered HTTP 500: Query evaluation failed"),
        ("garbage", "answer is not SPARQL JSON results"),
        ("slow", "did not answer within 0.5 s"),
    ],
)
def test_endpoint_failures_are_one_line_bad_input(
    mode, message, sparql_endpoint, rdflib_graph, monkeypatch
) -> None:
    monkeypatch.setenv("PANDORA_SPARQL_TIMEOUT", "0.5")
    url = sparql_endpoint(rdflib_graph("films"), mode)
    with pytest.raises(BadInputError, match=message):
        load_source(url)


def test_unreachable_endpoint() -> None:
    with pytest.raises(BadInputError, match="cannot reach SPARQL endpoint"):
        load_source("sparql+http://127.0.0.1:9/sparql")


def test_code_on_an_endpoint_runs_through_the_executor(sparql_endpoint, rdflib_graph, write_graph):
    """Workers block sockets before running code, so they prefetch the focus first."""
    from plugins import Workspace
    from plugins.executor import execute

    focus = Focus(entities=("Alfred Hitchcock",), hops=2)
    networkx_code = (
        "def KGQA(question, graph):\n"
        "    return sorted(h for h, t, r in graph.edges(data='relation') if r == 'directed_by')\n"
    )
    pandas_code = 'result = sorted(set(film[film["directed_by"] == "Alfred Hitchcock"]["film"]))'
    for representation, code in (("networkx", networkx_code), ("pandas", pandas_code)):
        outcomes = [
            execute(code, Workspace.of([load_source(location)]), representation, focus=focus)
            for location in (sparql_endpoint(rdflib_graph("films")), str(write_graph("films")))
        ]
        remote, local = outcomes
        assert remote.error is None, remote.error
        assert remote.result == local.result and remote.result
