"""Repair of unknown names, on real BOXes of the bundled music database and
on made-up frames: a misspelt table, column, BOX or field is replaced by the
one nearest name; an ambiguous or missing-join name is left to the LLM; a
merge on a key one side lacks follows the declared foreign key."""

from __future__ import annotations

import sqlite3

import pandas as pd
import pytest

from agent.repair import repair_program
from plugins import Box, ForeignKey, Workspace, load_source
from plugins.executor import execute
from plugins.pandas_box import workspace_boxes
from tests.agent.conftest import MUSIC


@pytest.fixture(scope="module")
def music() -> Workspace:
    return Workspace.of([load_source(str(MUSIC))])


@pytest.fixture(scope="module")
def boxes(music: Workspace) -> list[Box]:
    return workspace_boxes(music)


def sqlite_rows(sql: str) -> list[list[object]]:
    with sqlite3.connect(f"file:{MUSIC}?mode=ro", uri=True) as connection:
        return [list(row) for row in connection.execute(sql).fetchall()]


def failure(code: str, workspace: Workspace, representation: str) -> tuple[str, str]:
    run = execute(code, workspace, representation)
    assert run.error is not None, "the unrepaired program should fail"
    return run.error.type, run.error.message


def test_a_misspelt_sql_table_and_column_are_renamed_and_the_query_then_runs(music, boxes):
    query = "SELECT titel FROM albm WHERE genre = 'Jazz'"
    for _ in range(2):
        error_type, message = failure(query, music, "sql")
        repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
        assert repaired is not None
        query = repaired.code
    assert execute(query, music, "sql").result == sqlite_rows(
        "SELECT title FROM album WHERE genre = 'Jazz'"
    )


def test_a_column_under_the_wrong_alias_moves_to_the_table_that_has_it(music, boxes):
    query = (
        "SELECT T1.title FROM artist AS T1 JOIN album AS T2 ON T1.artist_id = T2.artist_id "
        "WHERE T1.name = 'Miles Davis'"
    )
    error_type, message = failure(query, music, "sql")
    repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
    assert repaired is not None and repaired.changes == ("column T1.title -> T2.title",)
    assert execute(repaired.code, music, "sql").result == sqlite_rows(
        "SELECT album.title FROM artist JOIN album ON artist.artist_id = album.artist_id "
        "WHERE artist.name = 'Miles Davis'"
    )


def test_a_column_of_a_table_the_query_does_not_read_is_left_to_the_llm(music, boxes):
    query = "SELECT name FROM album"  # `name` is the artist's: a join is missing
    error_type, message = failure(query, music, "sql")
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None


def test_a_misspelt_box_and_field_in_pandas_are_renamed(music, boxes):
    code = "result = albums[albums['genr'] == 'Jazz']['title'].tolist()"
    for _ in range(2):
        error_type, message = failure(code, music, "pandas")
        repaired = repair_program(code, "python", error_type, message, boxes, "")
        assert repaired is not None
        code = repaired.code
    assert code == "result = album[album['genre'] == 'Jazz']['title'].tolist()"
    rows = execute(code, music, "pandas").result
    assert rows == sqlite_rows("SELECT title FROM album WHERE genre = 'Jazz'")


def test_a_field_read_as_an_attribute_is_renamed_into_a_subscript(music, boxes):
    code = "result = album.prise.max()"
    error_type, message = failure(code, music, "pandas")
    repaired = repair_program(code, "python", error_type, message, boxes, "")
    assert repaired is not None and repaired.code == "result = album['price'].max()"
    assert execute(repaired.code, music, "pandas").result == sqlite_rows(
        "SELECT MAX(price) FROM album"
    )


def test_a_merge_on_a_key_one_side_lacks_follows_the_foreign_key(music):
    customer = pd.DataFrame({"id": [1, 2], "name": ["Ann", "Bo"]})
    order = pd.DataFrame({"order_id": [10, 11, 12], "buyer": [1, 1, 2]})
    boxes = [
        Box("customer", customer, "shop"),
        Box("order", order, "shop", [ForeignKey("buyer", "customer", "id")]),
    ]
    code = "result = order.merge(customer, on='buyer')['name'].value_counts()"
    repaired = repair_program(code, "python", "KeyError", "'buyer'", boxes, "")
    assert repaired is not None
    assert "order.merge(customer, left_on='buyer', right_on='id')" in repaired.code
    joined = order.merge(customer, left_on="buyer", right_on="id")
    assert joined["name"].value_counts().to_dict() == {"Ann": 2, "Bo": 1}


def test_an_ambiguous_name_is_not_repaired():
    prices = pd.DataFrame({"price_eur": [1.0], "price_usd": [1.1]})
    boxes = [Box("prices", prices, "shop")]
    code = "result = prices['price'].mean()"
    assert repair_program(code, "python", "KeyError", "'price'", boxes, "") is None


def test_a_table_named_in_the_singular_is_the_plural_one():
    frame = pd.DataFrame({"student_id": [1]})
    boxes = [Box(name, frame, "school") for name in ("Students", "Student_Enrolment")]
    code = "SELECT COUNT(*) FROM student AS T1"
    repaired = repair_program(code, "sql", "QueryFailed", "no such table: student", boxes, "")
    assert repaired is not None and repaired.changes == ("table student -> Students",)
    two_plurals = [Box(name, frame, "sport") for name in ("matchs", "matches")]
    query = "SELECT COUNT(*) FROM match"
    failure_message = "no such table: match"
    assert repair_program(query, "sql", "QueryFailed", failure_message, two_plurals, "") is None


def test_a_name_the_program_assigns_itself_is_not_taken_for_a_box(music, boxes):
    code = "result = len(albums)\nalbums = album"  # used before it is assigned
    error_type, message = failure(code, music, "pandas")
    assert error_type == "NameError"
    assert repair_program(code, "python", error_type, message, boxes, "") is None


def test_a_join_of_an_imagined_table_used_nowhere_else_is_dropped(music, boxes):
    query = (
        "SELECT album.genre, AVG(album.price) FROM album "
        "JOIN genre ON album.genre_id = genre.genre_id GROUP BY album.genre"
    )
    error_type, message = failure(query, music, "sql")
    repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
    assert repaired is not None and repaired.changes == ("join of unknown table genre dropped",)
    assert execute(repaired.code, music, "sql").result == sqlite_rows(
        "SELECT genre, AVG(price) FROM album GROUP BY genre"
    )


def test_an_imagined_table_the_query_reads_is_left_to_the_llm(music, boxes):
    query = "SELECT genre.name FROM album JOIN genre ON album.genre = genre.name"
    error_type, message = failure(query, music, "sql")
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None


@pytest.fixture(scope="module")
def garage(tmp_path_factory) -> Workspace:
    """Cars whose maker key is named unlike the makers' own key, and owners
    no foreign key joins to the cars (car_1's and dog_kennels' shapes)."""
    path = tmp_path_factory.mktemp("garage") / "garage.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            """
            CREATE TABLE makers (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE cars (car_id INTEGER PRIMARY KEY,
                               maker INTEGER REFERENCES makers(id), horsepower INTEGER);
            CREATE TABLE owners (owner_id INTEGER PRIMARY KEY, car INTEGER, name TEXT);
            INSERT INTO makers VALUES (1, 'amc'), (2, 'ford'), (3, 'fiat');
            INSERT INTO cars VALUES (1, 1, 150), (2, 1, 90), (3, 2, 200), (4, 3, 60);
            INSERT INTO owners VALUES (1, 1, 'Ann'), (2, 3, 'Bo');
            """
        )
    return Workspace.of([load_source(str(path))])


@pytest.mark.parametrize(
    "query",
    [
        # the key the cars hold, written under the makers' alias
        "SELECT COUNT(*) FROM makers AS T1 JOIN cars AS T2 ON T1.maker = T2.maker "
        "WHERE T1.name = 'amc'",
        # the makers' key, written under the cars' alias
        "SELECT COUNT(*) FROM cars AS T1 JOIN makers AS T2 ON T1.id = T2.id WHERE T2.name = 'amc'",
    ],
)
def test_a_join_key_one_side_lacks_follows_the_foreign_key(garage, query):
    error_type, message = failure(query, garage, "sql")
    boxes = workspace_boxes(garage)
    repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
    assert repaired is not None
    assert execute(repaired.code, garage, "sql").result == [[2]]


def test_a_join_key_no_foreign_key_decides_is_left_to_the_llm(garage):
    """Moving `T1.owner_id` to `T2` would join on `T2.owner_id = T2.owner_id`:
    every car with every owner, counted as 8."""
    query = "SELECT COUNT(*) FROM cars AS T1 JOIN owners AS T2 ON T1.owner_id = T2.owner_id"
    error_type, message = failure(query, garage, "sql")
    boxes = workspace_boxes(garage)
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None


def test_a_column_elsewhere_still_moves_to_the_alias_that_has_it(garage):
    query = "SELECT T1.name FROM cars AS T1 JOIN makers AS T2 ON T1.maker = T2.id"
    error_type, message = failure(query, garage, "sql")
    repaired = repair_program(query, "sql", error_type, message, workspace_boxes(garage), "sqlite")
    assert repaired is not None and repaired.changes == ("column T1.name -> T2.name",)


def test_a_join_condition_on_names_neither_table_has_becomes_the_declared_key(garage):
    query = (
        "SELECT COUNT(*) FROM cars AS T1 JOIN makers AS T2 ON T1.maker_id = T2.maker_code "
        "WHERE T2.name = 'amc'"
    )
    error_type, message = failure(query, garage, "sql")
    repaired = repair_program(query, "sql", error_type, message, workspace_boxes(garage), "sqlite")
    assert repaired is not None
    assert repaired.changes == ("join T1.maker_id = T2.maker_code -> T1.maker = T2.id",)
    assert execute(repaired.code, garage, "sql").result == [[2]]


def test_a_repair_that_would_join_a_table_with_nothing_is_left_to_the_llm(garage):
    """Moving `T1.horsepower` to the cars would leave `T2.horsepower =
    T2.car_id`, a condition on the cars alone: every owner with those cars."""
    query = "SELECT COUNT(*) FROM owners AS T1 JOIN cars AS T2 ON T1.horsepower = T2.car_id"
    error_type, message = failure(query, garage, "sql")
    boxes = workspace_boxes(garage)
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None


@pytest.fixture(scope="module")
def medals(tmp_path_factory) -> Workspace:
    """TempTabQA-C's shape with two athletes: a medal reaches its athlete
    through its format and the format's tournament."""
    path = tmp_path_factory.mktemp("medals") / "medals.sqlite"
    with sqlite3.connect(path) as connection:
        connection.executescript(
            """
            CREATE TABLE Athlete (athlete_id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE Profile (athlete_id INTEGER REFERENCES Athlete(athlete_id), city TEXT);
            CREATE TABLE Tournament (tournament_id INTEGER PRIMARY KEY,
                athlete_id INTEGER REFERENCES Athlete(athlete_id), name TEXT);
            CREATE TABLE Format (format_id INTEGER PRIMARY KEY,
                tournament_id INTEGER REFERENCES Tournament(tournament_id), name TEXT);
            CREATE TABLE Medal (medal_id INTEGER PRIMARY KEY,
                format_id INTEGER REFERENCES Format(format_id), type TEXT);
            INSERT INTO Athlete VALUES (1, 'Ann'), (2, 'Bo');
            INSERT INTO Profile VALUES (1, 'Oslo'), (2, 'Rome');
            INSERT INTO Tournament VALUES (1, 1, 'Worlds'), (2, 2, 'Worlds');
            INSERT INTO Format VALUES (1, 1, '100 m'), (2, 1, '200 m'), (3, 2, '100 m');
            INSERT INTO Medal VALUES (1, 1, 'Gold'), (2, 2, 'Gold'), (3, 2, 'Silver'),
                                     (4, 3, 'Gold');
            """
        )
    return Workspace.of([load_source(str(path))])


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "SELECT COUNT(*) FROM Medal AS T1 JOIN Athlete AS T2 ON T1.athlete_id = T2.athlete_id "
            "WHERE T2.name = 'Ann' AND T1.type = 'Gold'",
            [[2]],
        ),
        (
            "SELECT T2.city, COUNT(*) FROM Medal AS T1 INNER JOIN Profile AS T2 "
            "ON T1.athlete_id = T2.athlete_id GROUP BY T2.city ORDER BY T2.city",
            [["Oslo", 3], ["Rome", 1]],
        ),
        (  # table names in another case: SQL reads them as the schema's
            "SELECT COUNT(*) FROM medal AS T1 JOIN athlete AS T2 ON T1.athlete_id = T2.athlete_id "
            "WHERE T2.name = 'Ann' AND T1.type = 'Gold'",
            [[2]],
        ),
    ],
)
def test_a_join_key_several_joins_away_is_reached_through_the_keys_between(medals, query, expected):
    error_type, message = failure(query, medals, "sql")
    boxes = workspace_boxes(medals)
    repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
    assert repaired is not None
    assert repaired.changes == (
        "join key T1.athlete_id reached through Medal -> Format -> Tournament",
    )
    assert execute(repaired.code, medals, "sql").result == expected


@pytest.mark.parametrize(
    ("query", "change", "expected"),
    [
        (
            "SELECT COUNT(*) FROM Profile AS T1 WHERE T1.name = 'Ann'",
            "column T1.name reached through Profile -> Athlete",
            [[1]],
        ),
        (
            "SELECT COUNT(*) FROM profile AS T1 WHERE T1.name = 'Ann'",
            "column T1.name reached through Profile -> Athlete",
            [[1]],
        ),
        (
            "SELECT COUNT(*) FROM Medal AS T1 WHERE T1.type = 'Gold' AND T1.tournament_id = 1",
            "column T1.tournament_id reached through Medal -> Format",
            [[2]],
        ),
        (
            "SELECT T1.type, COUNT(*) FROM Medal AS T1 WHERE T1.athlete_id = 1 "
            "GROUP BY T1.type ORDER BY T1.type",
            "column T1.athlete_id reached through Medal -> Format -> Tournament",
            [["Gold", 2], ["Silver", 1]],
        ),
        # `medal_type` is how a joined view names Medal's `type`; small models
        # use the view's names on the tables
        (
            "SELECT COUNT(*) FROM Medal AS T1 WHERE T1.medal_type = 'Gold'",
            "column T1.medal_type -> T1.type",
            [[3]],
        ),
        (
            "SELECT COUNT(*) FROM Medal AS T1 JOIN Format AS T2 ON T1.format_id = T2.format_id "
            "WHERE T1.format_name = '100 m'",
            "column T1.format_name -> T2.name",
            [[2]],
        ),
        (
            "SELECT COUNT(*) FROM Medal AS T1 WHERE T1.athlete_name = 'Ann'",
            "column T1.athlete_name reached through Medal -> Format -> Tournament -> Athlete",
            [[3]],
        ),
    ],
)
def test_a_column_a_table_lacks_is_read_from_the_table_its_keys_lead_to(
    medals, query, change, expected
):
    error_type, message = failure(query, medals, "sql")
    boxes = workspace_boxes(medals)
    repaired = repair_program(query, "sql", error_type, message, boxes, "sqlite")
    assert repaired is not None and repaired.changes == (change,)
    assert execute(repaired.code, medals, "sql").result == expected


def test_a_column_only_a_one_to_many_step_reaches_is_left_to_the_llm(medals):
    # a tournament's athlete has a profile, but keys lead from Profile to Athlete, not back
    query = "SELECT T1.name FROM Tournament AS T1 WHERE T1.city = 'Oslo'"
    error_type, message = failure(query, medals, "sql")
    boxes = workspace_boxes(medals)
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None


@pytest.mark.parametrize(
    "query",
    [
        # from an athlete, keys lead to medals only the other way (one to many)
        "SELECT COUNT(*) FROM Athlete AS T1 JOIN Medal AS T2 ON T1.format_id = T2.format_id",
        # an outer join would keep medals the chain cannot place
        "SELECT COUNT(*) FROM Medal AS T1 LEFT JOIN Athlete AS T2 ON T1.athlete_id = T2.athlete_id",
    ],
)
def test_a_join_key_no_chain_of_keys_reaches_is_left_to_the_llm(medals, query):
    error_type, message = failure(query, medals, "sql")
    boxes = workspace_boxes(medals)
    assert repair_program(query, "sql", error_type, message, boxes, "sqlite") is None
