"""Join paths between BOXes, on a real SQLite file shaped like TempTabQA-C's
databases (medals reach athletes only through formats and tournaments). The
joins the feedback writes are executed: pandas chains on the BOXes, SQL on the
file itself."""

from __future__ import annotations

import sqlite3

import pytest

from agent.feedback import judge
from agent.join_paths import render_joins, shortest_join_path
from agent.state import Attempt, CodeFailure
from plugins import Workspace, load_source
from plugins.pandas_box import workspace_boxes

SCHEMA = """
CREATE TABLE Athlete (athlete_id INTEGER PRIMARY KEY, name TEXT, country TEXT);
CREATE TABLE Tournament (tournament_id INTEGER PRIMARY KEY,
    athlete_id INTEGER REFERENCES Athlete(athlete_id), name TEXT);
CREATE TABLE Format (format_id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES Tournament(tournament_id), name TEXT);
CREATE TABLE Medal (medal_id INTEGER PRIMARY KEY,
    format_id INTEGER REFERENCES Format(format_id), type TEXT, year INTEGER);
CREATE TABLE Coach (id INTEGER PRIMARY KEY, trains INTEGER REFERENCES Athlete(athlete_id),
    name TEXT);
CREATE TABLE Venue (venue_id INTEGER PRIMARY KEY, city TEXT);
INSERT INTO Athlete VALUES (1, 'Ann Lee', 'FRA'), (2, 'Bo Chen', 'CHN');
INSERT INTO Tournament VALUES (10, 1, 'World Championships'), (11, 2, 'Asian Games');
INSERT INTO Format VALUES (100, 10, 'Singles'), (101, 11, 'Doubles');
INSERT INTO Medal VALUES (1000, 100, 'Gold', 2018), (1001, 100, 'Silver', 2019),
    (1002, 101, 'Bronze', 2020);
INSERT INTO Coach VALUES (7, 1, 'Cy Roe');
INSERT INTO Venue VALUES (1, 'Paris');
"""


@pytest.fixture(scope="module")
def database(tmp_path_factory):
    path = tmp_path_factory.mktemp("sport") / "sport.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(SCHEMA)
    connection.commit()
    connection.close()
    return path


@pytest.fixture(scope="module")
def boxes(database):
    return workspace_boxes(Workspace.of([load_source(str(database))]))


def box(boxes, name):
    return next(item for item in boxes if item.name == name)


def failed(code: str, missing: str) -> Attempt:
    return Attempt(code=code, executed=True, error=CodeFailure(type="KeyError", message=missing))


def test_the_shortest_path_follows_keys_in_both_directions(boxes):
    path = shortest_join_path("Medal", {"Athlete"}, boxes)
    assert [link.to_box for link in path] == ["Format", "Tournament", "Athlete"]
    back = shortest_join_path("Athlete", {"Medal"}, boxes)
    assert [link.to_box for link in back] == ["Tournament", "Format", "Medal"]


def test_no_path_between_unconnected_boxes(boxes):
    assert shortest_join_path("Medal", {"Venue"}, boxes) is None


def test_the_pandas_chain_runs_and_names_the_fields_it_renames(boxes):
    path = shortest_join_path("Medal", {"Athlete"}, boxes)
    text = render_joins(box(boxes, "Medal"), path, boxes, "result = Medal", "name")
    chain = text.split(", then")[0]
    joined = eval(chain, {item.name: item.frame for item in boxes})
    assert "then use the field 'name_Athlete'" in text
    assert "Tournament['name'] is 'name_Tournament'" in text
    assert {"name", "name_Tournament", "name_Athlete"} <= set(joined.columns)
    by_athlete = joined.groupby("name_Athlete")["medal_id"].count().to_dict()
    assert by_athlete == {"Ann Lee": 2, "Bo Chen": 1}


def test_keys_named_differently_are_joined_with_left_and_right_on(boxes):
    path = shortest_join_path("Coach", {"Tournament"}, boxes)
    text = render_joins(box(boxes, "Coach"), path, boxes, "result = Coach", "tournament_id")
    assert text.startswith("Coach.merge(Athlete, left_on='trains', right_on='athlete_id'")
    chain = text.split(", then")[0]
    joined = eval(chain, {item.name: item.frame for item in boxes})
    assert joined[["name", "name_Tournament"]].values.tolist() == [
        ["Cy Roe", "World Championships"]
    ]


def test_sql_joins_run_on_the_database(boxes, database):
    path = shortest_join_path("Medal", {"Athlete"}, boxes)
    text = render_joins(box(boxes, "Medal"), path, boxes, "SELECT * FROM Medal", "name")
    joins, use = text.split(", then use ")
    assert use == "Athlete.name"
    query = f"SELECT {use}, COUNT(*) {joins} GROUP BY {use} ORDER BY {use}"
    with sqlite3.connect(database) as connection:
        assert connection.execute(query).fetchall() == [("Ann Lee", 2), ("Bo Chen", 1)]


def test_a_key_two_joins_away_gets_the_chain_in_the_feedback(boxes):
    code = "rows = Medal.merge(Athlete, on='athlete_id')\nresult = rows['type'].value_counts()"
    feedback = judge(failed(code, "'athlete_id'"), "Which medal type?", boxes, []).feedback
    assert "Medal has no 'athlete_id'; the joins that reach it: Medal.merge(Format, " in feedback
    assert ".merge(Athlete, on='athlete_id', suffixes=('', '_Athlete'))" in feedback
    chain = feedback.split("the joins that reach it: ")[1].split(", then")[0]
    joined = eval(chain, {item.name: item.frame for item in boxes})
    assert len(joined) == 3


def test_only_boxes_the_code_names_get_a_path(boxes):
    code = "result = Athlete[Athlete['year'] > 2018]"
    feedback = judge(failed(code, "'year'"), "Who?", boxes, []).feedback
    assert "Athlete has no 'year'; the joins that reach it: Athlete.merge(Tournament" in feedback
    assert "Format has no" not in feedback


def test_a_field_no_box_has_gets_no_path(boxes):
    code = "result = Medal['continent']"
    feedback = judge(failed(code, "'continent'"), "Where?", boxes, []).feedback
    assert "joins that reach it" not in feedback


def test_a_field_two_merged_boxes_share_gets_the_names_pandas_gives_it(boxes):
    code = (
        "rows = Athlete.merge(Tournament, on='athlete_id')\n"
        "result = rows[rows['name'] == 'Ann Lee']"
    )
    frames = {item.name: item.frame for item in boxes}
    with pytest.raises(KeyError):
        exec(code, dict(frames))
    feedback = judge(failed(code, "'name'"), "Which?", boxes, []).feedback
    assert "Athlete and Tournament have 'name': after a merge it is 'name_x' (left)" in feedback
    merged = frames["Athlete"].merge(frames["Tournament"], on="athlete_id")
    assert {"name_x", "name_y"} <= set(merged.columns)


def test_no_suffix_hint_without_a_merge(boxes):
    code = "result = Athlete[Athlete['name'] == Tournament['name']]"
    feedback = judge(failed(code, "'name'"), "Which?", boxes, []).feedback
    assert "after a merge" not in feedback
