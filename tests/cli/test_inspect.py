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
