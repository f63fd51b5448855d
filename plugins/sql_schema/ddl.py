"""Schemas as SQL DDL with keys and types and no values (TempTabQA-C's symbolic form).

The DDL shown in prompts escapes control characters in names
(`plugins.sql_schema.shown_names`); the DDL that creates the in-memory tables
of flat tables keeps names exact.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import pandas as pd

from plugins.sql_schema.shown_names import shown_name

if TYPE_CHECKING:
    from plugins.loaders.database_schema import Database
    from plugins.model import ForeignKey


def render_database_ddl(database: Database) -> str:
    """`CREATE TABLE` statements for every table, in the database's own dialect,
    names as the prompt shows them (control characters escaped)."""
    import sqlalchemy  # only databases need it: flat tables are typed by hand
    from sqlalchemy.schema import CreateTable

    metadata = sqlalchemy.MetaData()
    tables = []
    for table in database.tables:
        columns = [
            sqlalchemy.Column(
                shown_name(column.name),
                column.declared_type,
                primary_key=column.primary_key,
                nullable=column.nullable or column.primary_key,
                quote=_needs_quotes(column.name) or None,
            )
            for column in table.columns
        ]
        sql_table = sqlalchemy.Table(
            shown_name(table.name), metadata, *columns, quote=_needs_quotes(table.name) or None
        )
        tables.append((table, sql_table))
    known = {table.name for table in database.tables}
    for table, sql_table in tables:
        for key in table.foreign_keys:
            if key.ref_table in known:
                reference = f"{shown_name(key.ref_table)}.{shown_name(key.ref_column)}"
                sql_table.append_constraint(
                    sqlalchemy.ForeignKeyConstraint([shown_name(key.column)], [reference])
                )
    dialect = database.engine.dialect
    statements = (str(CreateTable(t).compile(dialect=dialect)).strip() for _, t in tables)
    # names hold no line break once shown: every space before one is SQLAlchemy's
    return "\n\n".join(re.sub(r" +\n", "\n", statement) + ";" for statement in statements)


@lru_cache(maxsize=4096)
def _needs_quotes(name: str) -> bool:
    """Whether `name` must be quoted for a SQL parser to read it as a name:
    SQLAlchemy quotes only SQLite's reserved words, but `qualify` and other
    keywords of wider SQL stop sqlglot (and so the read-only query check), and a
    name whose control characters are shown escaped must stay one name."""
    if shown_name(name) != name:
        return True
    import sqlglot

    try:
        sqlglot.parse_one(f"SELECT {name} FROM {name}", read="sqlite")
    except sqlglot.errors.SqlglotError:
        return True
    return False


def sqlite_type_of(dtype: object) -> str:
    """The SQLite column type that holds values of a pandas dtype."""
    if pd.api.types.is_bool_dtype(dtype):
        return "BOOLEAN"
    if pd.api.types.is_integer_dtype(dtype):
        return "INTEGER"
    if pd.api.types.is_float_dtype(dtype):
        return "REAL"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "TIMESTAMP"
    return "TEXT"


def quote_identifier(name: str) -> str:
    """`name` as a double-quoted SQL identifier, exactly."""
    return '"' + name.replace('"', '""') + '"'


def create_table_ddl(
    table_name: str,
    frame: pd.DataFrame,
    exact_names: bool = False,
    foreign_keys: Sequence[ForeignKey] = (),
) -> str:
    """`CREATE TABLE` for a flat table, with one typed column per DataFrame
    column, then its `foreign_keys` (a KG's BOXes have them).

    Names are shown as a prompt shows them (control characters escaped) unless
    `exact_names`, which the DDL that really creates the table needs.
    """
    name_of = str if exact_names else shown_name
    lines = [
        f"\t{quote_identifier(name_of(str(column)))} {sqlite_type_of(dtype)}"
        for column, dtype in frame.dtypes.items()
    ]
    lines += [
        f"\tFOREIGN KEY({quote_identifier(name_of(key.field))}) REFERENCES "
        f"{quote_identifier(name_of(key.ref_box))} ({quote_identifier(name_of(key.ref_field))})"
        for key in foreign_keys
    ]
    columns = ",\n".join(lines)
    return f"CREATE TABLE {quote_identifier(name_of(table_name))} (\n{columns}\n);"
