"""Database loaders on real SQLite and DuckDB files (PostgreSQL: tests/plugins/sql_schema)."""

from __future__ import annotations

import hashlib
import sqlite3

import duckdb
import pytest

from plugins import BadInputError, load_source


def make_sqlite(path, script: str):
    connection = sqlite3.connect(path)
    connection.executescript(script)
    connection.commit()
    connection.close()
    return path


SCHOOL = """
CREATE TABLE teacher (teacher_id INTEGER PRIMARY KEY, name TEXT, hired DATE);
CREATE TABLE course (course_id INTEGER PRIMARY KEY, title TEXT,
                     teacher_id INTEGER REFERENCES teacher(teacher_id));
CREATE TABLE enrolment (student TEXT, course_id TEXT REFERENCES course, grade REAL);
INSERT INTO teacher VALUES (1, 'Ada', '2010-09-01'), (2, 'Ben', NULL);
INSERT INTO course VALUES (10, 'Logic', 1), (11, 'Sets', 2), (12, 'Graphs', NULL);
INSERT INTO enrolment VALUES ('x', '10', 3.5), ('y', '11', NULL), ('z', '10', 4.0);
"""


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_sqlite_schema_keys_and_types_come_from_the_database(tmp_path):
    path = make_sqlite(tmp_path / "school.sqlite", SCHOOL)
    before = digest(path)
    source = load_source(str(path))
    database = source.handle
    assert source.kind == "database" and source.plugin == "sqlite" and source.name == "school"
    assert [t.name for t in database.tables] == ["course", "enrolment", "teacher"]
    course = database.table("course")
    assert [c.name for c in course.columns if c.primary_key] == ["course_id"]
    assert [(k.column, k.ref_table, k.ref_column) for k in course.foreign_keys] == [
        ("teacher_id", "teacher", "teacher_id")
    ]
    enrolment = database.table("enrolment")
    # a foreign key naming only the table refers to its primary key
    assert [(k.column, k.ref_table) for k in enrolment.foreign_keys] == [("course_id", "course")]
    frame = database.read_frame(course)
    assert str(frame["teacher_id"].dtype) == "Int64"  # integers with a NULL stay integers
    assert digest(path) == before


def test_sqlite_url_and_duckdb_file(tmp_path):
    path = make_sqlite(tmp_path / "school.db", SCHOOL)
    assert load_source(f"sqlite:///{path}").plugin == "sqlalchemy"
    duck_path = tmp_path / "shop.duckdb"
    connection = duckdb.connect(str(duck_path))
    connection.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, price DECIMAL(8,2))")
    connection.execute("INSERT INTO item VALUES (1, 2.50), (2, 3.25)")
    connection.close()
    source = load_source(str(duck_path))
    frame = source.handle.read_frame(source.handle.table("item"))
    assert frame["price"].tolist() == [2.5, 3.25]
    assert frame["price"].dtype == "float64"


def test_corrupt_locked_and_fake_databases_are_bad_input(tmp_path):
    fake = tmp_path / "fake.sqlite"
    fake.write_text("just text")
    with pytest.raises(BadInputError, match="not a SQLite database"):
        load_source(str(fake))
    corrupt = make_sqlite(tmp_path / "corrupt.sqlite", SCHOOL)
    data = bytearray(corrupt.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    corrupt.write_bytes(bytes(data))
    with pytest.raises(BadInputError, match="corrupt"):
        load_source(str(corrupt))
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    with pytest.raises(BadInputError, match="file is empty"):
        load_source(str(empty))


def test_locked_database_says_so(tmp_path):
    path = make_sqlite(tmp_path / "busy.sqlite", SCHOOL)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(BadInputError, match="locked"):
            load_source(str(path))
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_unreachable_database_url(tmp_path):
    with pytest.raises(BadInputError, match="cannot open the database"):
        load_source("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")
    with pytest.raises(BadInputError, match="no plugin reads URLs of scheme 'gopher'"):
        load_source("gopher://example/db")
