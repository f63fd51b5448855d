"""Joined views in SQL: shown like tables, defined in the query that uses them.

The schema shows a view as a column list with types, the way tables are
shown, with a comment naming the tables it joins: a small model reads the
columns it may use at a glance, where a `CREATE VIEW ... AS SELECT` would
mix base names and aliases (`Athlete.name AS athlete_name`) and invite
`medal_details.name`.

Nothing is created in the database. A query that names a view gets the
view's SELECT as a common table expression in front of it, so it runs
alike on SQLite, DuckDB and PostgreSQL on connections that stay read-only
(a PostgreSQL read-only transaction refuses even `CREATE TEMP VIEW`), and
the SQLite authorizer needs no new permission. The whole query is checked
for being one read-only statement again after the definitions are added.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.tokens import TokenType

from plugins.joined_views import JoinedView, view_select
from plugins.sql_schema.ddl import _needs_quotes, quote_identifier
from plugins.sql_schema.shown_names import shown_name
from plugins.sql_schema.statement_check import SQLGLOT_DIALECTS, check_read_only_query

if TYPE_CHECKING:
    from plugins.loaders.database_schema import Database


def view_ddl(view: JoinedView, database: Database) -> str:
    """`CREATE VIEW name (column TYPE, ...);` and the comment saying what it joins."""
    lines = [f"CREATE VIEW {_shown(view.name)} ("]
    columns = [
        f"\t{_shown(column.name)} {_type_name(database, column.table, column.column)}".rstrip()
        for column in view.columns
    ]
    lines.append(",\n".join(columns))
    lines.append(");")
    lines.append(f"-- {shown_name(view.description())}; query it like a table")
    return "\n".join(lines)


def _shown(name: str) -> str:
    shown = shown_name(name)
    return quote_identifier(shown) if _needs_quotes(name) else shown


def _type_name(database: Database, table: str, column: str) -> str:
    import sqlalchemy

    declared = next(c for c in database.table(table).columns if c.name == column)
    try:
        return declared.declared_type.compile(dialect=database.engine.dialect)
    except sqlalchemy.exc.CompileError:
        return ""  # an untyped SQLite column


def with_view_definitions(query: str, views: list[JoinedView], dialect: str) -> str:
    """`query` with the definition of every view it names (and does not
    define itself) added as a common table expression; unchanged when it
    names none. `query` must be one read-only statement: the result is
    checked to be one again."""
    if not views:
        return query
    tree = sqlglot.parse_one(query, read=SQLGLOT_DIALECTS.get(dialect))
    named = {table.name.casefold() for table in tree.find_all(exp.Table) if not table.db}
    defined = {cte.alias.casefold() for cte in tree.find_all(exp.CTE)}
    needed = [v for v in views if v.name.casefold() in named - defined]
    if not needed:
        return query
    definitions = ",\n".join(
        f"{quote_identifier(view.name)} AS (\n{view_select(view, quote_identifier)}\n)"
        for view in needed
    )
    tokens = Dialect.get_or_raise(SQLGLOT_DIALECTS.get(dialect)).tokenize(query)
    if tokens[0].token_type == TokenType.WITH:
        after = tokens[1] if tokens[1].token_type == TokenType.RECURSIVE else tokens[0]
        combined = f"{query[: after.end + 1]} {definitions},\n{query[after.end + 1 :]}"
    elif tokens[0].token_type == TokenType.SELECT:
        combined = f"WITH {definitions}\n{query}"
    else:  # a parenthesised query or VALUES: a WITH cannot stand in front of it
        combined = f"WITH {definitions}\nSELECT * FROM (\n{query}\n)"
    check_read_only_query(combined, dialect)
    return combined
