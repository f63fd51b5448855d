"""A few rows of each table under its `CREATE TABLE`, as SQL comments.

A schema without values leaves a small model guessing how the data spells
things (`'Female'` or `'female'`, `'USA'` or `'United States'`); Qwen2.5-Coder
was evaluated on Spider with three example rows per table. Every value is
untrusted text from the data: it is shown as an SQL literal on a comment line
of its own, with whitespace collapsed and length capped, so it can neither end
the comment nor start a prompt section.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.joined_views import view_select
from plugins.sql_schema.ddl import quote_identifier

if TYPE_CHECKING:
    from plugins.sql_schema.targets import SqlTarget

MAX_VALUE_CHARACTERS = 40
QUERY_TIMEOUT_SECONDS = 5.0


def ddl_with_example_rows(target: SqlTarget, rows: int) -> str:
    """The target's DDL, then its joined views', with up to `rows` example
    rows under each table and view (the DDL alone when `rows` is 0)."""
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
    blocks = []
    for statement, query in zip(statements + view_blocks, queries, strict=True):
        examples = example_rows_comment(target, query, rows)
        blocks.append(f"{statement}\n{examples}" if examples else statement)
    return "\n\n".join(blocks)


def example_rows_comment(target: SqlTarget, query: str, rows: int) -> str:
    """Comment lines with the first `rows` rows of `query` ('' when it has none)."""
    with target.cursor(QUERY_TIMEOUT_SECONDS) as cursor:
        cursor.execute(f"{query} LIMIT {int(rows)}")
        fetched = cursor.fetchall()
    if not fetched:
        return ""
    lines = [f"-- {len(fetched)} example rows:"]
    lines += ["-- (" + ", ".join(sql_literal(value) for value in row) + ")" for row in fetched]
    return "\n".join(lines)


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
