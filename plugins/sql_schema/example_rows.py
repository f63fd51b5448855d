"""A few rows of each table under its `CREATE TABLE`, as SQL comments.

A schema without values leaves a small model guessing how the data spells
things (`'Female'` or `'female'`, `'USA'` or `'United States'`); Qwen2.5-Coder
was evaluated on Spider with three example rows per table. Every value is
untrusted text from the data: it is shown as an SQL literal on a comment line
of its own, with whitespace collapsed and length capped, so it can neither end
the comment nor start a prompt section. A table that ends with a total row
says so under its rows (`plugins.total_rows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

from plugins.joined_views import view_select
from plugins.sql_schema.ddl import quote_identifier
from plugins.sql_schema.shown_names import shown_name
from plugins.total_rows import MOST_ROWS, find_total_row

if TYPE_CHECKING:
    from plugins.sql_schema.targets import SqlTarget

MAX_VALUE_CHARACTERS = 40
QUERY_TIMEOUT_SECONDS = 5.0
EXAMPLE_ROWS_CHARACTERS = 2400
"""The most characters of example rows one schema shows, all tables together."""
FEW_ROWS = 3
"""Rows per table the schema keeps however many characters they take."""


def ddl_with_example_rows(target: SqlTarget, rows: int) -> str:
    """The target's DDL, then its joined views', with up to `rows` rows under
    each table and view (the DDL alone when `rows` is 0).

    A small database is shown whole, so a small model reads how its data is
    spelt as a direct answer would; when the rows would pass
    EXAMPLE_ROWS_CHARACTERS, every table shows fewer of them (halving, down
    to FEW_ROWS).
    """
    ddl = target.render_ddl()
    views = target.joined_views()
    view_blocks = target.render_views_ddl()
    statements = ddl.split("\n\n")
    tables = [item.name for item in target.schema_items()]
    if rows <= 0 or len(statements) != len(tables):
        # a statement split by a blank line inside a name: show no rows
        return "\n\n".join([ddl, *view_blocks])
    queries = [f"SELECT * FROM {quote_identifier(table)}" for table in tables]
    queries += [view_select(view, quote_identifier) for view in views]
    fetched = [_first_rows(target, query, rows + 1) for query in queries]
    floor = min(rows, FEW_ROWS)
    shown = rows
    while shown > floor and _characters(fetched, shown) > EXAMPLE_ROWS_CHARACTERS:
        shown = max(floor, shown // 2)
    notes = [_total_row_note(target, table) for table in tables] + [""] * len(views)
    blocks = []
    for statement, rows_fetched, note in zip(statements + view_blocks, fetched, notes, strict=True):
        lines = [statement, _rows_comment(rows_fetched, shown), note]
        blocks.append("\n".join(line for line in lines if line))
    return "\n\n".join(blocks)


def _first_rows(target: SqlTarget, query: str, rows: int) -> list[str]:
    """The first `rows` rows of `query`, each written as a tuple of SQL literals."""
    with target.cursor(QUERY_TIMEOUT_SECONDS) as cursor:
        cursor.execute(f"{query} LIMIT {int(rows)}")
        fetched = cursor.fetchall()
    return ["(" + ", ".join(sql_literal(value) for value in row) + ")" for row in fetched]


def _total_row_note(target: SqlTarget, table: str) -> str:
    """A comment line naming the table's closing total row, or "" when it has none."""
    with target.cursor(QUERY_TIMEOUT_SECONDS) as cursor:
        cursor.execute(f"SELECT * FROM {quote_identifier(table)} LIMIT {MOST_ROWS + 1}")
        columns = [description[0] for description in cursor.description]
        frame = pd.DataFrame(cursor.fetchall(), columns=columns)
    total = find_total_row(frame)
    if total is None:
        return ""
    column = quote_identifier(shown_name(total.label_column))
    return (
        f"-- the row where {column} = {sql_literal(total.label)}"
        " adds up the rows above it: leave it out of counts, sums, averages and rankings"
    )


def _characters(fetched: list[list[str]], shown: int) -> int:
    """Characters the rows take when every table shows at most `shown` of them."""
    return sum(len(row) + 4 for rows in fetched for row in rows[:shown])


def _rows_comment(fetched: list[str], shown: int) -> str:
    """Comment lines with `shown` of the fetched rows; `fetched` holds one row
    more than was asked, so fewer rows than that means the table is whole."""
    if not fetched:
        return ""
    whole = len(fetched) <= shown
    heading = f"-- all {len(fetched)} rows:" if whole else f"-- {shown} example rows:"
    return "\n".join([heading] + [f"-- {row}" for row in fetched[:shown]])


def sql_literal(value: Any) -> str:
    """One value as a short SQL literal on one line."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return "<blob>"
    text = " ".join(str(value).split())
    text = "".join(character for character in text if character.isprintable())
    if len(text) > MAX_VALUE_CHARACTERS:
        text = text[: MAX_VALUE_CHARACTERS - 3] + "..."
    return "'" + text.replace("'", "''") + "'"
