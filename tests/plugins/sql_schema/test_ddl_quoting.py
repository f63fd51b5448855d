"""DDL identifiers go through SQL quoting whatever they hold (quotes,
newlines, backslashes, unicode): the DDL of flat tables and of a real SQLite
database parses with sqlglot, names round-trip as shown (control characters
escaped, everything else exact), and no name can put a line break or another
control character into the prompt."""

from __future__ import annotations

import sqlite3

import pandas as pd
import sqlglot
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlglot import exp

from plugins import Workspace, get_registry, load_source
from plugins.prompt_text import CONTROL_CHARACTERS
from plugins.sql_schema.ddl import create_table_ddl, quote_identifier
from plugins.sql_schema.shown_names import shown_name

NAMES = st.text(
    alphabet=st.sampled_from(["a", "'", '"', "\n", "\\", "`", "[", "]", ";", "-", "é", " ", "ß"])
    | st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
    min_size=1,
    max_size=20,
)


def _column_names(ddl: str) -> list[str]:
    statement = sqlglot.parse_one(ddl, read="sqlite")
    assert isinstance(statement, exp.Create)
    return [column.name for column in statement.find_all(exp.ColumnDef)]


@settings(max_examples=200, deadline=None)
@given(table=NAMES, columns=st.lists(NAMES, min_size=1, max_size=5, unique=True))
def test_flat_table_ddl_parses_and_keeps_every_name(table: str, columns: list[str]) -> None:
    frame = pd.DataFrame({name: [1] for name in columns})
    ddl = create_table_ddl(table, frame)
    assert _column_names(ddl) == [shown_name(name) for name in columns]
    assert sqlglot.parse_one(ddl, read="sqlite").this.this.name == shown_name(table)
    assert not CONTROL_CHARACTERS.search(ddl.replace("\n", " ").replace("\t", " "))
    assert ddl.count("\n") == len(columns) + 1  # one line per column, none from a name
    exact = create_table_ddl(table, frame, exact_names=True)
    assert _column_names(exact) == columns


@settings(max_examples=25, deadline=None)
@given(table=NAMES, columns=st.lists(NAMES, min_size=1, max_size=4, unique_by=str.casefold))
def test_database_ddl_of_a_real_sqlite_file_parses(tmp_path_factory, table, columns) -> None:
    path = tmp_path_factory.mktemp("ddl") / "awkward.sqlite"
    with sqlite3.connect(path) as connection:
        quoted = ", ".join(f"{quote_identifier(name)} INTEGER" for name in columns)
        connection.execute(f"CREATE TABLE {quote_identifier(table)} ({quoted})")
    connection.close()
    ddl = get_registry().representation("sql").render_schema(Workspace.of([load_source(str(path))]))
    assert _column_names(ddl) == [shown_name(name) for name in columns]
    assert ddl.count("\n") == len(columns) + 1


def test_names_sqlglot_takes_for_keywords_are_quoted_in_database_ddl(tmp_path) -> None:
    """SQLAlchemy quotes only SQLite's reserved words; `qualify` (found by the
    property test above) is a keyword to sqlglot, so the DDL must quote it,
    while ordinary names such as `date` stay bare."""
    path = tmp_path / "keywords.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute('CREATE TABLE qualify ("select" INTEGER, date TEXT, name TEXT)')
    connection.close()
    ddl = get_registry().representation("sql").render_schema(Workspace.of([load_source(str(path))]))
    assert ddl.startswith('CREATE TABLE "qualify" (')
    assert '"select" INTEGER' in ddl and "\tdate TEXT" in ddl
    assert _column_names(ddl) == ["select", "date", "name"]
