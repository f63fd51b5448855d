"""Database connections that can only read, for one query, bounded in time.

SQLite: opening with `mode=ro` alone still lets `ATTACH` and `VACUUM INTO`
write files, so an authorizer allows only reading, attaching is limited to
zero databases, strings and blobs are capped, and a progress handler stops
the query at its deadline. DuckDB: the loader opens every file read-only
with `DUCKDB_READ_ONLY_CONFIG` (no files, no extensions, configuration
locked); a timer calls `interrupt()` at the deadline. PostgreSQL: a read-only
transaction with a statement timeout, always rolled back. Any other
SQLAlchemy backend: a transaction rolled back.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

MAX_VALUE_BYTES = 10_000_000
PROGRESS_INSTRUCTIONS = 10_000
DUCKDB_READ_ONLY_CONFIG = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}
SQLITE_READ_ACTIONS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
)
SQLITE_FORBIDDEN_FUNCTIONS = frozenset(
    {"load_extension", "readfile", "writefile", "edit", "fts3_tokenizer"}
)


def _sqlite_authorizer(action: int, first: str | None, *_: Any) -> int:
    if action not in SQLITE_READ_ACTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (first or "").lower() in SQLITE_FORBIDDEN_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def lock_down_sqlite(connection: sqlite3.Connection) -> None:
    """Allow only reads on `connection` from now on, for good."""
    connection.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    connection.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES)
    connection.set_authorizer(_sqlite_authorizer)


@contextmanager
def sqlite_deadline(connection: sqlite3.Connection, timeout_seconds: float) -> Iterator[None]:
    """Interrupt any statement on `connection` still running after `timeout_seconds`."""
    deadline = time.monotonic() + timeout_seconds
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), PROGRESS_INSTRUCTIONS)
    try:
        yield
    finally:
        connection.set_progress_handler(None, 0)


def open_read_only_sqlite(path: str) -> sqlite3.Connection:
    """A locked-down read-only connection on a SQLite file."""
    connection = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, check_same_thread=False)
    lock_down_sqlite(connection)
    return connection


@contextmanager
def duckdb_deadline(connection: Any, timeout_seconds: float) -> Iterator[None]:
    """Interrupt the running DuckDB query after `timeout_seconds`."""
    timer = threading.Timer(timeout_seconds, connection.interrupt)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@contextmanager
def postgres_read_only_cursor(dbapi_connection: Any, timeout_seconds: float) -> Iterator[Any]:
    """A cursor inside a READ ONLY transaction with a statement timeout, rolled back after."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("SET TRANSACTION READ ONLY")
        cursor.execute(f"SET LOCAL statement_timeout = {int(timeout_seconds * 1000)}")
        yield cursor
    finally:
        cursor.close()
        dbapi_connection.rollback()
