"""Schemas as SQL DDL with keys and types and no values (TempTabQA-C's symbolic form)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from plugins.loaders.database_schema import Database


def render_database_ddl(database: Database) -> str:
    """`CREATE TABLE` statements for every table, in the database's own dialect."""
    import sqlalchemy  # only databases need it: flat tables are typed by hand
    from sqlalchemy.schema import CreateTable

    metadata = sqlalchemy.MetaData()
    tables = []
    for table in database.tables:
        columns = [
            sqlalchemy.Column(
                column.name,
                column.declared_type,
                primary_key=column.primary_key,
                nullable=column.nullable or column.primary_key,
                quote=_needs_quotes(column.name) or None,
            )
            for column in table.columns
        ]
        sql_table = sqlalchemy.Table(
            table.name, metadata, *columns, quote=_needs_quotes(table.name) or None
        )
        tables.append((table, sql_table))
    known = {table.name for table in database.tables}
    for table, sql_table in tables:
        for key in table.foreign_keys:
            if key.ref_table in known:
                reference = f"{key.ref_table}.{key.ref_column}"
                sql_table.append_constraint(
                    sqlalchemy.ForeignKeyConstraint([key.column], [reference])
                )
    dialect = database.engine.dialect
    statements = (str(CreateTable(t).compile(dialect=dialect)).strip() for _, t in tables)
    return "\n\n".join(_strip_line_ends(statement) + ";" for statement in statements)


@lru_cache(maxsize=4096)
def _needs_quotes(name: str) -> bool:
    """Whether `name` must be quoted for a SQL parser to read it as a name:
    SQLAlchemy quotes only SQLite's reserved words, but `qualify` and other
    keywords of wider SQL stop sqlglot (and so the read-only query check)."""
    import sqlglot

    try:
        sqlglot.parse_one(f"SELECT {name} FROM {name}", read="sqlite")
    except sqlglot.errors.SqlglotError:
        return True
    return False


def _strip_line_ends(text: str) -> str:
    """SQLAlchemy's DDL without the spaces it leaves before line breaks, except
    inside a quoted identifier (a name may hold spaces and line breaks)."""
    kept: list[str] = []
    quoted = False
    for character in text:
        if character == '"':
            quoted = not quoted  # a doubled quote inside a name toggles twice
        elif character == "\n" and not quoted:
            while kept and kept[-1] == " ":
                kept.pop()
        kept.append(character)
    return "".join(kept)


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
    """`name` as a double-quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def create_table_ddl(table_name: str, frame: pd.DataFrame) -> str:
    """`CREATE TABLE` for a flat table, with one typed column per DataFrame column."""
    columns = ",\n".join(
        f"\t{quote_identifier(str(column))} {sqlite_type_of(dtype)}"
        for column, dtype in frame.dtypes.items()
    )
    return f"CREATE TABLE {quote_identifier(table_name)} (\n{columns}\n);"
