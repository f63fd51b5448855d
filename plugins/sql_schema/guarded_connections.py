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

MAX_VALUE_BYTES = 1_000_000
"""SQLITE_LIMIT_LENGTH: the longest string or blob a query may build, so that
`printf('%.*c', 2e9, 'x')` or `zeroblob(2e9)` fails at once instead of
allocating gigabytes between two progress checks."""
PROGRESS_INSTRUCTIONS = 10_000
DUCKDB_READ_ONLY_CONFIG = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "memory_limit": "1GB",
    "threads": 1,
    "lock_configuration": True,
}
SQLITE_READ_ACTIONS = frozenset(
    {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION, sqlite3.SQLITE_RECURSIVE}
)
SQLITE_ALLOWED_FUNCTIONS = frozenset(
    {
        # core scalar functions
        *("abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull"),
        *("iif", "instr", "length", "like", "likelihood", "likely", "lower", "ltrim", "max"),
        *("min", "nullif", "octet_length", "printf", "quote", "random", "randomblob"),
        *("replace", "round", "rtrim", "sign", "soundex", "substr", "substring", "trim"),
        *("typeof", "unhex", "unicode", "unistr", "unlikely", "upper", "zeroblob"),
        # aggregates and window functions
        *("avg", "count", "group_concat", "string_agg", "sum", "total", "median", "percentile"),
        *("percentile_cont", "percentile_disc", "row_number", "rank", "dense_rank"),
        *("percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value", "last_value"),
        "nth_value",
        # dates and times
        *("date", "time", "datetime", "julianday", "unixepoch", "strftime", "timediff"),
        # mathematics
        *("acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos"),
        *("cosh", "degrees", "exp", "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow"),
        *("power", "radians", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"),
        # JSON
        *("json", "jsonb", "json_array", "jsonb_array", "json_array_length", "json_extract"),
        *("jsonb_extract", "json_insert", "jsonb_insert", "json_object", "jsonb_object"),
        *("json_patch", "jsonb_patch", "json_remove", "jsonb_remove", "json_replace"),
        *("jsonb_replace", "json_set", "jsonb_set", "json_type", "json_valid", "json_quote"),
        *("json_group_array", "jsonb_group_array", "json_group_object", "jsonb_group_object"),
        *("json_each", "json_tree", "json_error_position", "json_pretty", "->", "->>"),
    }
)
"""The SQLite functions a query may call. Everything else is refused, such as
`load_extension`, `fts3_tokenizer` (it hands out a native pointer) and the
`sqlite_*` introspection functions."""


def _sqlite_authorizer(action: int, first: str | None, second: str | None, *_: Any) -> int:
    """Allow reading only. For SQLITE_FUNCTION, SQLite passes no first argument
    and the function's name as the second."""
    if action not in SQLITE_READ_ACTIONS:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and (second or "").lower() not in SQLITE_ALLOWED_FUNCTIONS:
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
