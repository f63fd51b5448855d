"""Loaders of relational databases: SQLite and DuckDB files, any SQLAlchemy URL.

Tables, columns, declared types, primary and foreign keys are read from the
database itself. Files are opened read-only (SQLite `mode=ro`, DuckDB
`read_only`), so loading can never modify them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from plugins.errors import BadInputError
from plugins.hookspecs import hookimpl
from plugins.model import Source
from plugins.names import make_identifier

if TYPE_CHECKING:  # SQLAlchemy is imported when a database is opened: start-up speed
    from sqlalchemy.engine import Engine

SQLITE_MAGIC = b"SQLite format 3\x00"
DUCKDB_MAGIC_OFFSET = 8
DUCKDB_MAGIC = b"DUCK"
CONNECT_TIMEOUT_SECONDS = 5


OpenedDatabase = tuple["Engine", str | None]
"""An engine, and the database file when there is one."""


def open_sqlite_file(path: Path) -> OpenedDatabase:
    """A read-only engine on a SQLite file whose header has been checked."""
    import sqlalchemy

    with path.open("rb") as handle:
        header = handle.read(len(SQLITE_MAGIC))
    if header != SQLITE_MAGIC:
        raise BadInputError(f"{path}: not a SQLite database (bad header)")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, check_same_thread=False)

    return sqlalchemy.create_engine("sqlite://", creator=connect), str(path.resolve())


def open_duckdb_file(path: Path) -> OpenedDatabase:
    """A read-only engine on a DuckDB file whose header has been checked."""
    import sqlalchemy

    from plugins.sql_schema.guarded_connections import DUCKDB_READ_ONLY_CONFIG

    with path.open("rb") as handle:
        handle.seek(DUCKDB_MAGIC_OFFSET)
        if handle.read(len(DUCKDB_MAGIC)) != DUCKDB_MAGIC:
            raise BadInputError(f"{path}: not a DuckDB database (bad header)")
    # the SQL plugin's guarded connections use the same settings: DuckDB refuses two
    # connections to one file with different configurations
    connect_args = {"read_only": True, "config": dict(DUCKDB_READ_ONLY_CONFIG)}
    engine = sqlalchemy.create_engine(f"duckdb:///{path.resolve()}", connect_args=connect_args)
    return engine, str(path.resolve())


def open_url(url: str) -> OpenedDatabase:
    """An engine for a SQLAlchemy URL; SQLite and DuckDB URLs open read-only."""
    import sqlalchemy
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except sqlalchemy.exc.ArgumentError as error:
        raise BadInputError(f"{url}: not a database URL: {error}") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite" and parsed.database:
        return open_sqlite_file(_existing_file(url, parsed.database))
    if backend == "duckdb" and parsed.database and parsed.database != ":memory:":
        return open_duckdb_file(_existing_file(url, parsed.database))
    connect_args = {"connect_timeout": CONNECT_TIMEOUT_SECONDS} if backend == "postgresql" else {}
    try:
        return sqlalchemy.create_engine(parsed, connect_args=connect_args), None
    except (sqlalchemy.exc.NoSuchModuleError, ImportError) as error:
        raise BadInputError(f"{redact(url)}: no driver for this URL: {error}") from None


def _existing_file(url: str, database: str) -> Path:
    path = Path(database)
    if not path.is_file():
        raise BadInputError(f"{url}: no such database file {database!r}")
    return path


def redact(url: str) -> str:
    """`url` with its password hidden, for messages."""
    import sqlalchemy
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except sqlalchemy.exc.ArgumentError:
        return url


@dataclass(frozen=True)
class DatabaseLoader:
    """Opens a database through an engine factory and reads its schema."""

    name: str
    extensions: tuple[str, ...]
    schemes: tuple[str, ...]
    open_engine: Callable[[str], OpenedDatabase]
    kind: str = "database"

    def load(self, location: str, name: str | None) -> Source:
        """Open `location` read-only and read its tables, keys and types."""
        from plugins.loaders.database_schema import read_database_schema

        engine, file_path = self.open_engine(location)
        database = read_database_schema(engine, redact(location), file_path)
        if not database.tables:
            raise BadInputError(f"{redact(location)}: the database has no tables to ask about")
        default_name = Path(location).stem if "://" not in location else _url_name(location)
        source_name = make_identifier(name or default_name, fallback="database")
        return Source(source_name, "database", self.name, location, database)


def _url_name(url: str) -> str:
    from sqlalchemy.engine import make_url

    database = make_url(url).database or make_url(url).get_backend_name()
    return Path(database).stem


def _open_file(opener: Callable[[Path], OpenedDatabase]) -> Callable[[str], OpenedDatabase]:
    def open_location(location: str) -> OpenedDatabase:
        path = Path(location)
        if not path.is_file():
            raise BadInputError(f"{location}: no such file")
        if path.stat().st_size == 0:
            raise BadInputError(f"{location}: file is empty, not a database")
        return opener(path)

    return open_location


LOADERS = (
    DatabaseLoader("sqlite", (".sqlite", ".sqlite3", ".db"), (), _open_file(open_sqlite_file)),
    DatabaseLoader("duckdb", (".duckdb",), (), _open_file(open_duckdb_file)),
    DatabaseLoader(
        "sqlalchemy",
        (),
        (
            "sqlite",
            "duckdb",
            "postgresql",
            "postgresql+psycopg",
            "postgresql+psycopg2",
            "mysql",
            "mysql+pymysql",
            "mssql+pyodbc",
        ),
        open_url,
    ),
)


@hookimpl
def register_loaders(register: Callable[..., None]) -> None:
    """The built-in database loaders."""
    for loader in LOADERS:
        register(loader)
