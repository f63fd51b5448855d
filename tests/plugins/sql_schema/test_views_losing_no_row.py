"""Whether a joined view loses no row of the tables it joins, checked on the
data: what lets the schema show the view alone (`agent.planning.
views_joining_everything`) without hiding an athlete who never won a medal."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

import plugins.sql_schema as sql_schema
from plugins import Workspace, get_registry, load_source


def view_item(path):
    workspace = Workspace.of([load_source(str(path))])
    items = get_registry().representation("sql").schema_items(workspace)
    (view,) = [item for item in items if item.joins]
    return view


def test_every_row_of_every_table_is_in_the_athletes_medal_view(medals_database):
    view = view_item(medals_database)
    assert view.name == "medal_details"
    assert view.loses_no_row() is True


@pytest.mark.parametrize(
    "orphan",
    [
        "INSERT INTO Tournament VALUES (9, 1, 'Asian Games')",  # a tournament without formats
        "INSERT INTO Format VALUES (9, NULL, 'Mixed')",  # a format of no tournament
        "INSERT INTO Athlete VALUES (2, 'Bo Other', 'SWE')",  # an athlete without medals
        "INSERT INTO PersonalInformation (athlete_id) VALUES (7)",  # details of nobody
    ],
)
def test_a_row_the_view_leaves_out_is_found(medals_database, tmp_path, orphan):
    changed = tmp_path / "changed.sqlite"
    shutil.copy(medals_database, changed)
    with sqlite3.connect(changed) as connection:
        connection.execute("PRAGMA foreign_keys = OFF")
        connection.execute(orphan)
    assert view_item(changed).loses_no_row() is False
    assert view_item(medals_database).loses_no_row() is True  # the original file is untouched


def test_the_music_shops_purchases_leave_out_what_was_never_sold(examples):
    assert view_item(examples / "music.sqlite").loses_no_row() is False


def test_a_database_too_big_for_the_vocabulary_is_not_checked(medals_database, monkeypatch):
    """Past VOCABULARY_MAX_ROWS rows no query is spent on it: not checked, so False."""
    monkeypatch.setattr(sql_schema, "VOCABULARY_MAX_ROWS", 2)
    assert view_item(medals_database).loses_no_row() is False
