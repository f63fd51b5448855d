"""Table-to-BOX and DB-to-BOX: names, keys, and the fidelity rule against SQL.

The pandas programs here are written by the test (not generated code), run
directly to compare BOXes with what SQLite itself returns.
"""

from __future__ import annotations

import sqlite3

import pandas as pd

from plugins import Workspace, get_registry, load_source
from plugins.executor import execute
from plugins.pandas_box import case_aliases, workspace_boxes

AFFINITY_DB = """
CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, age INTEGER);
CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, year TEXT);
CREATE TABLE singer_in_concert (concert_id INTEGER REFERENCES concert(concert_id),
                                singer_id TEXT REFERENCES singer(singer_id));
INSERT INTO singer VALUES (1, 'Joe', 52), (2, 'Rose', 41), (3, 'Tribal King', 25);
INSERT INTO concert VALUES (1, '2014'), (2, '2015');
INSERT INTO singer_in_concert VALUES (1, '2'), (1, '3'), (2, '2'), (2, ' 1');
"""


def sqlite_database(tmp_path, script=AFFINITY_DB):
    path = tmp_path / "concerts.sqlite"
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.commit()
    connection.close()
    return path


def boxes_by_name(workspace):
    return {box.name: box for box in workspace_boxes(workspace)}


def test_foreign_key_columns_share_one_dtype_and_joins_match_sql(tmp_path):
    path = sqlite_database(tmp_path)
    boxes = boxes_by_name(Workspace.of([load_source(str(path))]))
    link = boxes["singer_in_concert"].frame
    assert link["singer_id"].dtype == boxes["singer"].frame["singer_id"].dtype
    pandas_rows = (
        link.merge(boxes["singer"].frame, on="singer_id")
        .groupby("name")
        .size()
        .sort_index()
        .reset_index()
        .values.tolist()
    )
    sql_rows = (
        sqlite3.connect(path)
        .execute(
            "SELECT s.name, COUNT(*) FROM singer_in_concert c JOIN singer s "
            "ON s.singer_id = c.singer_id GROUP BY s.name ORDER BY s.name"
        )
        .fetchall()
    )
    assert [tuple(row) for row in pandas_rows] == sql_rows
    isin_rows = boxes["singer"].frame[boxes["singer"].frame["singer_id"].isin(link["singer_id"])]
    assert len(isin_rows) == 3


def test_key_with_non_numeric_text_makes_both_sides_text(tmp_path):
    path = sqlite_database(
        tmp_path,
        """
        CREATE TABLE a (code INTEGER PRIMARY KEY);
        CREATE TABLE b (code TEXT REFERENCES a(code));
        INSERT INTO a VALUES (1), (2);
        INSERT INTO b VALUES ('1'), ('x');
        """,
    )
    boxes = boxes_by_name(Workspace.of([load_source(str(path))]))
    assert boxes["a"].frame["code"].tolist() == ["1", "2"]
    assert boxes["a"].frame.merge(boxes["b"].frame, on="code")["code"].tolist() == ["1"]


def test_boxes_keep_foreign_keys_and_row_counts(examples):
    boxes = boxes_by_name(Workspace.of([load_source(str(examples / "music.sqlite"))]))
    assert sorted(boxes) == ["album", "artist", "customer", "purchase", "track"]
    assert {(k.field, k.ref_box, k.ref_field) for k in boxes["purchase"].foreign_keys} == {
        ("track_id", "track", "track_id"),
        ("customer_id", "customer", "customer_id"),
    }
    assert len(boxes["track"].frame) == 17


def test_clashing_box_names_are_prefixed_with_their_source(tmp_path):
    (tmp_path / "orders.csv").write_text("id,total\n1,5\n")
    sqlite_database(
        tmp_path,
        """
        CREATE TABLE customer (id INTEGER PRIMARY KEY);
        CREATE TABLE orders (id INTEGER, customer INTEGER REFERENCES customer(id));
        INSERT INTO customer VALUES (1);
        INSERT INTO orders VALUES (7, 1);
        """,
    )
    workspace = Workspace.of(
        [
            load_source(str(tmp_path / "orders.csv")),
            load_source(str(tmp_path / "concerts.sqlite"), name="shop"),
        ]
    )
    boxes = boxes_by_name(workspace)
    assert sorted(boxes) == ["customer", "orders_orders", "shop_orders"]
    assert boxes["shop_orders"].foreign_keys[0].ref_box == "customer"


def test_namespace_gives_fresh_frames_each_time(examples):
    workspace = Workspace.of([load_source(str(examples / "cities.csv"))])
    pandas = get_registry().representation("pandas")
    first = pandas.namespace(workspace)
    first["cities"]["City"] = "changed"
    second = pandas.namespace(workspace)
    assert second["cities"]["City"].iloc[0] == "Tokyo"
    assert second["pd"] is pd


def test_boxes_answer_to_other_cases_of_their_name_in_generated_code(tmp_path):
    script = """
    CREATE TABLE Student_Enrolment (student_id INTEGER, semester TEXT);
    CREATE TABLE PD (x INTEGER);
    INSERT INTO Student_Enrolment VALUES (1, 'fall'), (2, 'spring'), (3, 'fall');
    """
    workspace = Workspace.of([load_source(str(sqlite_database(tmp_path, script)))])
    code = (
        "student_enrolment['semester'] = student_enrolment['semester'].str.upper()\n"
        "result = Student_Enrolment.groupby('semester').size()"
    )
    outcome = execute(code, workspace, "pandas")
    assert outcome.error is None
    assert outcome.result == [["FALL", 2], ["SPRING", 1]]
    shouted = execute(
        "result = len(STUDENT_ENROLMENT) + len(Student_enrolment)", workspace, "pandas"
    )
    assert shouted.error is None and shouted.result == [[6]]
    assert get_registry().representation("pandas").namespace(workspace)["pd"] is pd


def test_case_aliases_never_guess_or_shadow():
    assert case_aliases(["Dogs", "Sales", "SALES", "owners", "Owners"]) == {
        "dogs": "Dogs",
        "DOGS": "Dogs",
    }
    assert case_aliases(["has_pet"]) == {
        "Has_pet": "has_pet",
        "Has_Pet": "has_pet",
        "HAS_PET": "has_pet",
    }


def test_render_schema_shows_fields_dtypes_keys_and_optional_values(examples):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    pandas = get_registry().representation("pandas")
    text = pandas.render_schema(workspace)
    assert "purchase = pd.DataFrame({" in text
    assert "    'customer_id': [...],  # int64" in text
    assert "# foreign key: purchase['customer_id'] -> customer['customer_id']" in text
    assert "The Night Owls" not in text
    with_values = pandas.render_schema(workspace, values=2)
    assert "'name': ['The Night Owls', 'Marta Quintero', ...],  # str" in with_values
