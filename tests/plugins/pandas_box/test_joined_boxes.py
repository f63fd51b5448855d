"""Joined views as BOXes: the merged DataFrame beside the tables' BOXes, in
the namespace and in the rendered schema."""

from __future__ import annotations

import ast
import sqlite3

import pandas as pd

from evaluation.datasets.temptabqa import Infobox, write_database
from plugins import Workspace, get_registry, load_source

MEDALS = Infobox(
    name="Ann Example",
    country="NOR",
    tournaments=[
        ("Olympic Games", [("Singles", [("Gold", 2016, "Rio"), ("Silver", 2020, "")])]),
        ("World Championships", [("Doubles", [("Bronze", 2019, "Oslo")])]),
    ],
)
PANDAS = get_registry().representation("pandas")


def medals_workspace(tmp_path) -> Workspace:
    return Workspace.of([load_source(str(write_database(MEDALS, tmp_path / "m.sqlite")))])


def test_the_view_box_is_the_merge_of_its_boxes(tmp_path):
    namespace = PANDAS.namespace(medals_workspace(tmp_path))
    merged = (
        namespace["Medal"]
        .merge(namespace["Format"], how="left", on="format_id", suffixes=("", "_format"))
        .merge(namespace["Tournament"], how="left", on="tournament_id", suffixes=("", "_t"))
        .merge(namespace["Athlete"], how="left", on="athlete_id", suffixes=("", "_athlete"))
        .merge(namespace["PersonalInformation"], how="left", on="athlete_id")
    )
    personal = ["birth_date", "birth_year", "birth_place", "height", "weight", "coach"]
    chain = ["medal_id", "type", "year", "location", "name", "name_t", "name_athlete", "country"]
    expected = merged[[*chain, *personal]].set_axis(
        [
            "medal_id",
            "medal_type",
            "year",
            "location",
            "format_name",
            "tournament_name",
            "athlete_name",
            "country",
            *personal,
        ],
        axis=1,
    )
    pd.testing.assert_frame_equal(namespace["medal_details"], expected)


def test_the_view_box_is_rendered_after_the_boxes_as_python(tmp_path):
    workspace = medals_workspace(tmp_path)
    text = PANDAS.render_schema(workspace, None, 2)
    ast.parse(text)
    block = text.split("\n\n")[-1]
    assert block.startswith("# BOX medal_details from source m: 3 rows\n# medal_details is Medal")
    assert "'athlete_name': ['Ann Example', ...],  # str" in block
    assert [item.name for item in PANDAS.schema_items(workspace) if item.joins] == ["medal_details"]


def test_a_database_without_a_chain_has_no_view_box(tmp_path):
    path = tmp_path / "flat.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE team (team_id INTEGER PRIMARY KEY, name TEXT)")
        connection.execute(
            "CREATE TABLE player (player_id INTEGER PRIMARY KEY, "
            "team_id INTEGER REFERENCES team(team_id))"
        )
    workspace = Workspace.of([load_source(str(path))])
    assert [box.name for box in PANDAS.boxes(workspace)] == ["player", "team"]
    assert "details" not in PANDAS.render_schema(workspace)
