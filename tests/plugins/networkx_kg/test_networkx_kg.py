"""KG2Code: the NetworkX code the LLM reads builds exactly the graph its
program gets; soft answers; prompt guidance; the executor path."""

from __future__ import annotations

import datetime as dt

import networkx as nx
import pytest

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor import execute
from plugins.networkx_kg import KG2CODE_GUIDANCE, parse_soft_answer

FOCUS = Focus(entities=("Federico Fellini",), hops=3)


@pytest.fixture(scope="module")
def films() -> Workspace:
    return Workspace.of([load_source("examples/films.ttl")])


def edge_multiset(graph: nx.MultiDiGraph) -> list[tuple[str, str, str]]:
    return sorted((repr(h), repr(t), d["relation"]) for h, t, d in graph.edges(data=True))


def test_rendered_code_executes_to_the_namespace_graph(films) -> None:
    representation = get_registry().representation("networkx")
    code = representation.render_schema(films, FOCUS)
    assert code.startswith("import networkx as nx\nfrom datetime import date\n")
    assert "graph = nx.MultiDiGraph()" in code
    assert 'graph.add_node("Federico Fellini", types=["person"])' in code
    assert 'graph.add_edge("La Strada", "Federico Fellini", relation="directed_by")' in code
    built: dict = {}
    exec(compile(code, "<rendered>", "exec"), built)  # our own rendering, checked here
    given = representation.namespace(films, FOCUS)["graph"]
    assert edge_multiset(built["graph"]) == edge_multiset(given)
    assert dict(built["graph"].nodes(data=True)) == dict(given.nodes(data=True))


def test_literal_nodes_keep_their_python_types(films) -> None:
    graph = get_registry().representation("networkx").namespace(films, FOCUS)["graph"]
    tails = {d["relation"]: t for h, t, d in graph.out_edges("La Strada", data=True)}
    assert tails["runtime_minutes"] == 108
    assert tails["rating"] == 8.0
    assert tails["release_date"] == dt.date(1954, 9, 22)


def test_namespace_without_focus_is_an_empty_graph_for_worker_warm_up(films) -> None:
    namespace = get_registry().representation("networkx").namespace(films, None)
    assert namespace["graph"].number_of_nodes() == 0 and namespace["nx"] is nx


def test_kgqa_function_runs_in_the_executor(films) -> None:
    code = (
        "def KGQA(question, graph):\n"
        "    # films directed by Fellini that won something\n"
        "    films = [h for h, _, d in graph.in_edges('Federico Fellini', data=True)\n"
        "             if d['relation'] == 'directed_by']\n"
        "    won = {h for h, _, d in graph.edges(data=True) if d['relation'] == 'won'}\n"
        "    return sorted(set(films) & won)\n"
        "    # answer: ['8½', 'La Dolce Vita', 'La Strada']\n"
    )
    outcome = execute(code, films, "networkx", focus=FOCUS)
    assert outcome.error is None, outcome.error
    assert outcome.result == [["8½"], ["La Dolce Vita"], ["La Strada"]]


@pytest.mark.parametrize(
    ("code", "answer"),
    [
        ("def KGQA(q, g):\n    return len(x)\n    # length: 2\n", [["2"]]),
        ("x = 1\n# answer: ['Vertigo', 'Rear Window']\n", [["Vertigo"], ["Rear Window"]]),
        ("# answer: Washington, D.C.\n", [["Washington, D.C."]]),
        ("# answer: True\n", [["True"]]),
        ("x = 1  # not a comment line\n", None),
        ("# answer: 3\n# just a note\n", None),
    ],
)
def test_soft_answer_comes_from_the_last_comment_line(code, answer) -> None:
    assert parse_soft_answer(code) == answer


def test_guidance_covers_the_six_question_types() -> None:
    for kind in (
        "count",
        "boolean",
        "numeric comparison",
        "superlative",
        "set operations",
        "string conditions",
    ):
        assert kind in KG2CODE_GUIDANCE
    assert "KGQA(question, graph)" in KG2CODE_GUIDANCE


def test_the_prompt_members_of_kg2code(films) -> None:
    representation = get_registry().representation("networkx")
    assert representation.schema_heading == "## Knowledge graph (NetworkX code)"
    assert representation.code_requirement == "The code defines `KGQA(question, graph)`."
    assert KG2CODE_GUIDANCE in representation.instruction(films)
    code = "def KGQA(question, graph):\n    # films\n    return []\n    # answer: 8½"
    assert representation.demonstration_code(code) == code
    assert representation.soft_answer(code) == parse_soft_answer(code) == [["8½"]]


def test_the_vocabulary_is_the_focus_graphs_nodes_then_relations(films) -> None:
    representation = get_registry().representation("networkx")
    vocabulary = representation.vocabulary(films, FOCUS)
    graph = representation.namespace(films, FOCUS)["graph"]
    assert vocabulary.boxes == []
    assert vocabulary.names[: graph.number_of_nodes()] == [str(node) for node in graph.nodes]
    relations = vocabulary.names[graph.number_of_nodes() :]
    assert relations == sorted({data["relation"] for _, _, data in graph.edges(data=True)})
