"""`pandora inspect` on several sources, and on a knowledge graph without a focus."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def write_orders_database(path: Path, amounts: list[int]) -> Path:
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, amount INTEGER)")
    connection.executemany("INSERT INTO orders (amount) VALUES (?)", [(a,) for a in amounts])
    connection.commit()
    connection.close()
    return path


def test_several_sources_show_the_prefixed_names_of_a_clash(pandora, tmp_path):
    sales = write_orders_database(tmp_path / "sales.sqlite", [10, 20])
    crm = write_orders_database(tmp_path / "crm.sqlite", [5])
    run = pandora("inspect", str(sales), str(crm), "--json")
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert [source["name"] for source in payload["sources"]] == ["sales", "crm"]
    assert "source" not in payload  # several sources: see "sources"
    boxes = {box["name"]: (box["origin"], box["rows"]) for box in payload["boxes"]}
    assert boxes == {"sales_orders": ("sales", 2), "crm_orders": ("crm", 1)}
    assert "sales_orders = pd.DataFrame({" in payload["schema"]
    code = "result = len(sales_orders) + len(crm_orders)"
    same_names = pandora("run", str(sales), str(crm), "--code", "-", "--json", stdin=code)
    assert same_names.json["result"] == [[3]]  # the names inspect shows are the ones run uses


def test_a_knowledge_graph_without_a_focus_is_shown_as_an_overview(pandora, examples):
    run = pandora("inspect", str(examples / "films.ttl"), "--json")
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert payload["boxes"] == [] and payload["schema"] == ""
    (overview,) = payload["knowledge_graphs"]
    types = {kind["name"]: kind for kind in overview["types"]}
    assert types["film"]["count"] == 9
    assert 1 <= len(types["film"]["examples"]) <= 3
    text = pandora("inspect", str(examples / "films.ttl"))
    assert text.exit_code == 0, text.stderr
    assert "#   film (9): " in text.stdout
    assert "--entities or --question" in text.stdout


def test_a_table_and_an_unfocused_knowledge_graph_together(pandora, examples):
    run = pandora("inspect", str(examples / "cities.csv"), str(examples / "films.ttl"))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.startswith("# BOX cities")
    assert "# films: a knowledge graph of" in run.stdout


# --- what the focus linked to (issue 26) ---

HITCHCOCK_QUESTION = "Which films directed by Alfred Hitchcock star James Stewart?"
UNLABELLED = """\
@prefix ex: <http://example.org/geo/> .
ex:Paris a ex:City ; ex:country ex:France ; ex:population 2102650 .
ex:Lyon a ex:City ; ex:country ex:France .
ex:France a ex:Country .
"""


def iri_of_label(label: str) -> str:
    """The IRI rdflib finds for an rdfs:label of films.ttl."""
    from rdflib import Graph, Literal
    from rdflib.namespace import RDFS

    from tests.conftest import EXAMPLES

    graph = Graph()
    graph.parse(EXAMPLES / "films.ttl")
    (node,) = set(graph.subjects(RDFS.label, Literal(label, lang="en"))) | set(
        graph.subjects(RDFS.label, Literal(label))
    )
    return str(node)


def test_inspect_reports_what_a_question_linked_to(pandora, examples):
    films = str(examples / "films.ttl")
    run = pandora("inspect", films, "--question", HITCHCOCK_QUESTION, "--json")
    assert run.exit_code == 0, run.stderr
    (focus,) = run.json["focus"]
    assert focus["source"] == "films" and focus["hops"] == 2 and not focus["whole_graph"]
    assert focus["entities"] == [
        {
            "mention": "Alfred Hitchcock",
            "iri": iri_of_label("Alfred Hitchcock"),
            "types": ["person"],
            "label": "Alfred Hitchcock",
            "score": 1.0,
        },
        {
            "mention": "James Stewart",
            "iri": iri_of_label("James Stewart"),
            "types": ["person"],
            "label": "James Stewart",
            "score": 1.0,
        },
    ]
    assert focus["triples"] > 0 and focus["truncated"] is False
    text = pandora("inspect", films, "--entities", "Vertigo", "--hops", "1")
    assert text.exit_code == 0
    (line,) = [line for line in text.stderr.splitlines() if line.startswith("focus:")]
    assert line.startswith(
        f"focus: films: 'Vertigo' -> <{iri_of_label('Vertigo')}> (film, 'Vertigo', 1.00); 1 hop, "
    )
    assert "focus:" not in text.stdout  # the schema alone on stdout


def test_inspect_reports_the_focus_of_a_graph_without_labels(pandora, tmp_path):
    path = tmp_path / "geo.ttl"
    path.write_text(UNLABELLED)
    given = pandora("inspect", str(path), "--entities", "Paris", "--hops", "1", "--json")
    assert given.exit_code == 0, given.stderr
    (entity,) = given.json["focus"][0]["entities"]
    assert entity == {
        "mention": "Paris",
        "iri": "http://example.org/geo/Paris",
        "types": ["city"],
        "label": "Paris",
        "score": 1.0,
    }
    fuzzy = pandora("inspect", str(path), "--question", "How many people live in Pariss?", "--json")
    assert fuzzy.exit_code == 0, fuzzy.stderr
    (near,) = fuzzy.json["focus"][0]["entities"]
    assert near["iri"] == "http://example.org/geo/Paris" and near["mention"] == "Pariss"
    assert 0.85 <= near["score"] < 1.0


def test_an_entity_that_links_to_nothing_is_one_line_naming_the_closest(pandora, examples):
    run = pandora("inspect", str(examples / "films.ttl"), "--entities", "Vertgo", "--json")
    assert run.exit_code == 2
    assert run.stderr.strip().splitlines() == [
        f"pandora: BadInput: {examples / 'films.ttl'}: entity 'Vertgo' is not in the graph; "
        "closest labels: Vertigo"
    ]


def test_a_question_that_links_nothing_names_the_closest_labels():
    from plugins import load_source
    from plugins.errors import BadInputError
    from plugins.knowledge_graph.entity_linking import topic_entities_of_question
    from tests.conftest import EXAMPLES

    kg = load_source(str(EXAMPLES / "films.ttl")).handle
    try:
        topic_entities_of_question(kg, "Which prizes did Felini get?")
    except BadInputError as error:
        assert str(error).endswith("(closest labels: Federico Fellini, Michael Curtiz)")
    else:
        raise AssertionError("a question naming no entity of the graph links to nothing")
