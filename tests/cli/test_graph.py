"""`pandora graph` and `pandora inspect` on KGs, as a user calls them."""

from __future__ import annotations

HITCHCOCK_WITH_STEWART = """\
def KGQA(question, graph):
    # films starring James Stewart
    edges = graph.in_edges("James Stewart", data=True)
    starring = {h for h, _, d in edges if d["relation"] == "starring"}
    # films directed by Alfred Hitchcock
    edges = graph.in_edges("Alfred Hitchcock", data=True)
    directed = {h for h, _, d in edges if d["relation"] == "directed_by"}
    return sorted(starring & directed)
    # answer: ["Rear Window", "Vertigo"]
"""
QUESTION = "Which films directed by Alfred Hitchcock star James Stewart?"


def test_graph_runs_kgqa_on_the_question_subgraph(pandora, tmp_path) -> None:
    code = tmp_path / "kgqa.py"
    code.write_text(HITCHCOCK_WITH_STEWART)
    run = pandora(
        "graph", "examples/films.ttl", "--question", QUESTION, "--code", str(code), "--json"
    )
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert payload["result"] == [["Rear Window"], ["Vertigo"]]
    assert payload["error"] is None and "soft" not in payload
    assert set(payload) >= {"result", "error", "stdout", "elapsed_ms"}


def test_failing_code_exits_1_with_the_soft_answer(pandora) -> None:
    code = "def KGQA(question, graph):\n    return missing\n    # length: 2\n"
    run = pandora(
        "graph", "examples/films.ttl", "--entities", "Vertigo", "--code", "-", "--json", stdin=code
    )
    assert run.exit_code == 1
    payload = run.json
    assert payload["error"]["type"] == "NameError"
    assert payload["soft_answer"] == [["2"]] and payload["soft"] is True


def test_bad_input_exits_2_with_one_line(pandora, tmp_path) -> None:
    code = tmp_path / "kgqa.py"
    code.write_text(HITCHCOCK_WITH_STEWART)
    unknown = pandora(
        "graph", "examples/films.ttl", "--entities", "Vertgo", "--code", str(code), "--json"
    )
    assert unknown.exit_code == 2
    assert unknown.json["error"]["message"].endswith("closest labels: Vertigo")
    too_far = pandora(
        "graph", "examples/films.ttl", "--entities", "Vertigo", "--hops", "9", "--code", str(code)
    )
    assert too_far.exit_code == 2 and "hops" in too_far.stderr
    bad = tmp_path / "bad.ttl"
    bad.write_text("@prefix ex: <http://e/> .\nex:a ex:b .\n")
    malformed = pandora("graph", str(bad), "--entities", "a", "--code", str(code))
    assert malformed.exit_code == 2 and "malformed Turtle at line 2" in malformed.stderr
    assert len(malformed.stderr.strip().splitlines()) == 1


def test_inspect_shows_kg_boxes_and_networkx_code(pandora) -> None:
    run = pandora("inspect", "examples/films.ttl", "--entities", "Vertigo", "--hops", "1", "--json")
    assert run.exit_code == 0, run.stderr
    boxes = {box["name"]: box for box in run.json["boxes"]}
    assert {"film", "person", "country"} <= set(boxes)
    assert [f["name"] for f in boxes["film"]["fields"]][:2] == ["film", "aspect_ratio"]
    code = pandora(
        "inspect",
        "examples/films.ttl",
        "--question",
        QUESTION,
        "--representation",
        "networkx",
        "--json",
    )
    assert code.exit_code == 0, code.stderr
    assert 'graph.add_edge("Vertigo", "James Stewart", relation="starring")' in code.json["schema"]


def test_graph_reports_the_focus_in_json_and_on_stderr(pandora, tmp_path) -> None:
    code = tmp_path / "kgqa.py"
    code.write_text(HITCHCOCK_WITH_STEWART)
    arguments = ("graph", "examples/films.ttl", "--question", QUESTION, "--code", str(code))
    run = pandora(*arguments, "--json")
    assert run.exit_code == 0, run.stderr
    (focus,) = run.json["focus"]
    linked = {entity["label"]: entity for entity in focus["entities"]}
    assert sorted(linked) == ["Alfred Hitchcock", "James Stewart"]
    assert linked["James Stewart"]["iri"] == "http://example.org/films/JamesStewart"
    assert linked["James Stewart"]["types"] == ["person"] and focus["hops"] == 2
    assert "focus:" not in run.stderr  # --json: the focus is in the object
    text = pandora(*arguments)
    assert text.exit_code == 0
    assert "focus: films: 'Alfred Hitchcock' -> <http://example.org/films/AlfredHitchcock>" in (
        text.stderr
    )
