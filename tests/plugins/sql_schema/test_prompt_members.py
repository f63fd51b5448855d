"""What the sql representation adds to the agent's prompts and feedback:
an instruction naming the dialect, tables as schema items, the data as the
feedback's vocabulary unless the database is too big to load."""

from __future__ import annotations

import pytest

from plugins import Workspace, get_registry, load_source

SQL = get_registry().representation("sql")


def test_the_instruction_names_the_dialect(examples):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    assert "in the sqlite dialect" in SQL.instruction(workspace)
    assert SQL.schema_heading == "## Database schema"


def test_flat_tables_are_told_their_row_order_and_it_is_true(examples):
    import pandas as pd

    from plugins.sql_schema import run_query

    cities = Workspace.of([load_source(str(examples / "cities.csv"))])
    music = Workspace.of([load_source(str(examples / "music.sqlite"))])
    assert "`rowid` is a row's position" in SQL.instruction(cities)
    assert "rowid" not in SQL.instruction(music)  # a database's tables have no file order
    names = pd.read_csv(examples / "cities.csv")["City"].tolist()
    after = "SELECT City FROM cities WHERE rowid = (SELECT rowid FROM cities WHERE City = ?) + 1"
    for position in (0, 7, len(names) - 2):
        query = after.replace("?", repr(names[position]))
        assert run_query(cities, query).rows == [[names[position + 1]]]


def test_schema_items_are_the_tables_with_their_foreign_keys(examples):
    music = Workspace.of([load_source(str(examples / "music.sqlite"))])
    items = {item.name: item for item in SQL.schema_items(music)}
    assert "artist" in items["album"].references
    cities = Workspace.of([load_source(str(examples / "cities.csv"))])
    [item] = SQL.schema_items(cities)
    assert (item.name, item.references) == ("cities", ()) and "Country" in item.fields


def test_the_vocabulary_is_the_data_unless_it_is_too_big(examples, monkeypatch: pytest.MonkeyPatch):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    assert {box.name for box in SQL.vocabulary(workspace).boxes} >= {"album", "artist"}
    monkeypatch.setattr("plugins.sql_schema.VOCABULARY_MAX_ROWS", 10)
    assert SQL.vocabulary(workspace).boxes == []
    assert SQL.boxes(workspace) == []  # SQL code sees no BOXes
