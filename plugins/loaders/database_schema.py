"""A database's own description of itself, and its tables read as DataFrames."""

from __future__ import annotations

import decimal
import sqlite3
from dataclasses import dataclass

import pandas as pd
import sqlalchemy
from sqlalchemy.engine import Engine

from plugins.errors import BadInputError, PandoraError


@dataclass(frozen=True)
class Column:
    """A column as the database declares it."""

    name: str
    declared_type: sqlalchemy.types.TypeEngine
    nullable: bool
    primary_key: bool

    @property
    def type_name(self) -> str:
        """The declared type as SQL text (`INTEGER`, `VARCHAR(20)`)."""
        return str(self.declared_type)


@dataclass(frozen=True)
class TableForeignKey:
    """`column` refers to `ref_column` of table `ref_table`."""

    column: str
    ref_table: str
    ref_column: str


@dataclass(frozen=True)
class Table:
    """One table with its columns and foreign keys, in declaration order."""

    name: str
    columns: tuple[Column, ...]
    foreign_keys: tuple[TableForeignKey, ...]


@dataclass
class Database:
    """An open database (read-only where the backend allows) and its schema."""

    engine: Engine
    label: str
    tables: list[Table]
    path: str | None = None
    """The database file, for file databases (SQLite, DuckDB)."""

    @property
    def dialect(self) -> str:
        """The SQLAlchemy dialect name: `sqlite`, `duckdb`, `postgresql`, ..."""
        return self.engine.dialect.name

    def table(self, name: str) -> Table:
        """The table called `name`."""
        for table in self.tables:
            if table.name == name:
                return table
        raise BadInputError(f"{self.label}: no table named {name!r}")

    def read_frame(self, table: Table) -> pd.DataFrame:
        """All rows of `table`, with dtypes following the declared column types."""
        query = f"SELECT * FROM {self.engine.dialect.identifier_preparer.quote(table.name)}"
        try:
            if self.dialect == "sqlite":
                # pandas reads a sqlite3 connection directly, much faster than through SQLAlchemy
                raw = self.engine.raw_connection()
                try:
                    frame = pd.read_sql_query(query, raw.driver_connection)
                finally:
                    raw.close()
            else:
                with self.engine.connect() as connection:
                    frame = pd.read_sql_query(sqlalchemy.text(query), connection)
        except (sqlalchemy.exc.DBAPIError, sqlite3.DatabaseError) as error:
            raise database_error(self.label, error) from None
        return apply_declared_types(frame, table)


def read_database_schema(engine: Engine, label: str, path: str | None = None) -> Database:
    """Read tables, columns, types, primary and foreign keys from the database."""
    try:
        reader = _read_duckdb_tables if engine.dialect.name == "duckdb" else _inspect
        tables = reader(engine)
    except sqlalchemy.exc.DBAPIError as error:
        raise database_error(label, error) from None
    return Database(engine, label, tables, path)


def _inspect(engine: Engine) -> list[Table]:
    inspector = sqlalchemy.inspect(engine)
    tables = []
    for name in inspector.get_table_names():
        primary_key = set(inspector.get_pk_constraint(name).get("constrained_columns") or [])
        columns = tuple(
            Column(c["name"], c["type"], c.get("nullable", True), c["name"] in primary_key)
            for c in inspector.get_columns(name)
        )
        foreign_keys = tuple(
            TableForeignKey(column, fk["referred_table"], ref_column)
            for fk in inspector.get_foreign_keys(name)
            for column, ref_column in zip(
                fk["constrained_columns"], fk["referred_columns"], strict=False
            )
        )
        tables.append(Table(name, columns, foreign_keys))
    return tables


DUCKDB_TYPES: dict[str, type[sqlalchemy.types.TypeEngine]] = {
    "TINYINT": sqlalchemy.SmallInteger,
    "SMALLINT": sqlalchemy.SmallInteger,
    "INTEGER": sqlalchemy.Integer,
    "BIGINT": sqlalchemy.BigInteger,
    "HUGEINT": sqlalchemy.BigInteger,
    "DOUBLE": sqlalchemy.Float,
    "FLOAT": sqlalchemy.Float,
    "DECIMAL": sqlalchemy.Numeric,
    "BOOLEAN": sqlalchemy.Boolean,
    "DATE": sqlalchemy.Date,
    "TIMESTAMP": sqlalchemy.DateTime,
}


def _read_duckdb_tables(engine: Engine) -> list[Table]:
    """DuckDB's own catalog: its SQLAlchemy dialect cannot reflect recent DuckDB versions."""
    with engine.connect() as connection:
        names = connection.exec_driver_sql(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY 1"
        ).fetchall()
        columns = connection.exec_driver_sql(
            "SELECT table_name, column_name, data_type, is_nullable FROM duckdb_columns() "
            "WHERE schema_name = 'main' ORDER BY table_name, column_index"
        ).fetchall()
        constraints = connection.exec_driver_sql(
            "SELECT table_name, constraint_type, constraint_column_names, referenced_table, "
            "referenced_column_names FROM duckdb_constraints() WHERE schema_name = 'main' "
            "AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')"
        ).fetchall()
    primary = {(t, c) for t, kind, cols, _, _ in constraints if kind == "PRIMARY KEY" for c in cols}
    tables = []
    for (name,) in names:
        table_columns = tuple(
            Column(column, _duckdb_type(data_type), bool(nullable), (name, column) in primary)
            for table, column, data_type, nullable in columns
            if table == name
        )
        foreign_keys = tuple(
            TableForeignKey(column, referenced, ref_column)
            for table, kind, cols, referenced, ref_cols in constraints
            if table == name and kind == "FOREIGN KEY"
            for column, ref_column in zip(cols, ref_cols, strict=False)
        )
        tables.append(Table(name, table_columns, foreign_keys))
    return tables


def _duckdb_type(data_type: str) -> sqlalchemy.types.TypeEngine:
    base = data_type.split("(")[0].split(" ")[0].upper()
    return DUCKDB_TYPES.get(base, sqlalchemy.String)()


def database_error(label: str, error: Exception) -> PandoraError:
    """A one-line error for a database failure, as bad input where the database is at fault."""
    detail = " ".join(str(getattr(error, "orig", error)).split())
    lowered = detail.lower()
    if "locked" in lowered:
        return BadInputError(f"{label}: database is locked by another process; try again later")
    if "not a database" in lowered or "malformed" in lowered or "corrupt" in lowered:
        return BadInputError(f"{label}: not a database or corrupt ({detail})")
    if isinstance(error, (sqlalchemy.exc.OperationalError, sqlite3.OperationalError)):
        return BadInputError(f"{label}: cannot open the database: {detail}")
    return PandoraError(f"{label}: database error: {detail}")


def apply_declared_types(frame: pd.DataFrame, table: Table) -> pd.DataFrame:
    """Give columns the dtype their declared type promises, where every value fits."""
    typed = frame.copy(deep=False)
    for column in table.columns:
        if column.name not in typed.columns:
            continue
        typed[column.name] = _typed_column(typed[column.name], column.declared_type)
    return typed


def _typed_column(values: pd.Series, declared: sqlalchemy.types.TypeEngine) -> pd.Series:
    if values.dtype == object:
        values = _decimals_to_floats(values)
    integer_declared = isinstance(declared, sqlalchemy.Integer) and values.dtype == "float64"
    if integer_declared and (values.dropna() % 1 == 0).all():
        return values.astype("Int64")
    if isinstance(declared, (sqlalchemy.Date, sqlalchemy.DateTime)) and _all_text(values):
        try:
            return pd.to_datetime(values, format="ISO8601")
        except (ValueError, OverflowError):
            return values
    return values


def _decimals_to_floats(values: pd.Series) -> pd.Series:
    """Exact decimals (PostgreSQL `numeric`) become floats pandas can compute with."""
    present = values.dropna()
    if present.empty or not all(isinstance(v, decimal.Decimal) for v in present):
        return values
    return values.astype("float64")


def _all_text(values: pd.Series) -> bool:
    if pd.api.types.is_string_dtype(values) and values.dtype != object:
        return True
    return values.dtype == object and all(isinstance(v, str) for v in values.dropna())
