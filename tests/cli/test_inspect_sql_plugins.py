"""`pandora inspect`, `sql` and `plugins` as a user runs them: subprocesses, JSON, exit codes."""

from __future__ import annotations

import os
import sqlite3

import pytest


def test_inspect_reports_every_table_with_rows_columns_and_keys(pandora, examples):
    run = pandora("inspect", str(examples / "music.sqlite"), "--json")
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert payload["source"] == {"name": "music", "kind": "database", "plugin": "sqlite"}
    connection = sqlite3.connect(examples / "music.sqlite")
    tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    boxes = {box["name"]: box for box in payload["boxes"]}
    assert sorted(boxes) == sorted(tables)
    for table in tables:
        (count,) = connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()
        columns = [r[1] for r in connection.execute(f"PRAGMA table_info({table})")]
        keys = {(r[3], r[2], r[4]) for r in connection.execute(f"PRAGMA foreign_key_list({table})")}
        assert boxes[table]["rows"] == count
        assert [f["name"] for f in boxes[table]["fields"]] == columns
        assert {
            (k["field"], k["ref_box"], k["ref_field"]) for k in boxes[table]["foreign_keys"]
        } == keys
        assert "values" not in boxes[table] or boxes[table]["values"] is None
    assert "artist = pd.DataFrame({" in payload["schema"]


def test_inspect_values_and_sql_representation(pandora, examples):
    run = pandora("inspect", str(examples / "cities.csv"), "--values", "2", "--json")
    box = run.json["boxes"][0]
    assert box["name"] == "cities" and box["rows"] == 20
    assert box["values"][0][:3] == ["Tokyo", "Japan", 13960236]
    text = pandora("inspect", str(examples / "cities.csv"), "--representation", "sql")
    assert text.exit_code == 0 and 'CREATE TABLE "cities"' in text.stdout


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["missing.csv"], "missing.csv: no such file"),
        (["pyproject.toml"], "unknown file extension '.toml'"),
        (["examples/cities.csv", "--plugin", "nope"], "unknown plugin 'nope'"),
        (["examples/cities.csv", "--representation", "nope"], "unknown representation"),
    ],
)
def test_inspect_bad_input_exits_2_with_one_line(pandora, arguments, message):
    run = pandora("inspect", *arguments, "--json")
    assert run.exit_code == 2
    assert message in run.json["error"]["message"]
    assert len(run.stderr.strip().splitlines()) == 1 and message in run.stderr


def test_sql_matches_sqlite3_and_refuses_writes(pandora, examples, tmp_path):
    database = tmp_path / "music.sqlite"
    database.write_bytes((examples / "music.sqlite").read_bytes())
    query = "SELECT title, price FROM album WHERE price > 10 ORDER BY price DESC, title"
    run = pandora("sql", str(database), query, "--json")
    assert run.exit_code == 0, run.stderr
    expected = sqlite3.connect(database).execute(query).fetchall()
    assert run.json == {
        "columns": ["title", "price"],
        "rows": [list(row) for row in expected],
        "error": None,
        "truncated": False,
    }
    before = database.read_bytes()
    refused = pandora("sql", str(database), "DROP TABLE album", "--json")
    assert refused.exit_code == 2  # bad input: nothing ran
    assert refused.json["error"]["type"] == "Refused" and refused.json["rows"] == []
    assert database.read_bytes() == before
    failed = pandora("sql", str(database), "SELECT nope FROM album", "--json")
    assert failed.exit_code == 1 and "no such column" in failed.json["error"]["message"]


def test_plugins_lists_builtins_and_survives_a_broken_plugin(pandora, tmp_path):
    info = tmp_path / "broken_pandora_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: broken-pandora-plugin\nVersion: 0.1\n"
    )
    (info / "entry_points.txt").write_text("[pandora.plugins]\nbroken = broken_pandora_plugin\n")
    (tmp_path / "broken_pandora_plugin.py").write_text("raise RuntimeError('boom at import')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = pandora("plugins", "--json", env=env)
    assert run.exit_code == 0, run.stderr
    payload = run.json
    names = {plugin["name"] for plugin in payload["plugins"]}
    assert {"tables", "databases", "pandas", "sql"} <= names
    assert {r["name"] for r in payload["representations"]} >= {"pandas", "sql"}
    assert payload["broken"] == [
        {
            "name": "broken",
            "target": "broken_pandora_plugin",
            "error": "RuntimeError: boom at import",
        }
    ]
    assert "plugin 'broken'" in run.stderr
    still_works = pandora("inspect", "examples/cities.csv", "--json", env=env)
    assert still_works.exit_code == 0
