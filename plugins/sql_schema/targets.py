"""Where a workspace's SQL runs: its database, or an in-memory SQLite of its tables.

A workspace answers SQL when it holds one database, or only flat tables and
knowledge graphs: those are loaded together into one in-memory SQLite
database with typed columns, a KG as the BOXes of the subgraph a question
focuses on (one table per entity type, their foreign keys declared), so
that SQL, which a small model writes best, reaches a KG too.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import pandas as pd

from plugins.errors import BadInputError
from plugins.joined_views import JoinedView, database_joined_views
from plugins.model import Focus, ForeignKey, SchemaItem
from plugins.sql_schema import guarded_connections as guarded
from plugins.sql_schema.ddl import create_table_ddl, quote_identifier, render_database_ddl
from plugins.sql_schema.joined_view_sql import view_ddl
from plugins.workspace import Workspace

if TYPE_CHECKING:
    from plugins.loaders.database_schema import Database

COVERAGE_TIMEOUT_SECONDS = 10.0


@dataclass
class DatabaseTarget:
    """SQL on one database source, each query on a guarded connection."""

    database: Database

    @property
    def dialect(self) -> str:
        """The dialect queries are parsed and run in."""
        return self.database.dialect

    def render_ddl(self) -> str:
        """The database's schema as DDL."""
        return render_database_ddl(self.database)

    def joined_views(self) -> list[JoinedView]:
        """The views of the database's foreign-key chains (`plugins.joined_views`)."""
        return self._joined_views

    @cached_property
    def _joined_views(self) -> list[JoinedView]:
        return database_joined_views(self.database)

    def render_views_ddl(self) -> list[str]:
        """Each joined view as the schema shows it."""
        return [view_ddl(view, self.database) for view in self.joined_views()]

    def view_loses_no_row(self, view: JoinedView) -> bool:
        """Whether every row of every table of `view` is in it: the fact
        table's are (the view has one row per fact row), and a joined
        table's rows all are when each has its key among the values the
        table it is joined from holds, link by link from the fact table."""
        with self.cursor(COVERAGE_TIMEOUT_SECONDS) as cursor:
            for link in view.links:
                joined, key = quote_identifier(link.to_box), quote_identifier(link.to_field)
                source, value = quote_identifier(link.from_box), quote_identifier(link.from_field)
                cursor.execute(
                    f"SELECT 1 FROM {joined} WHERE {key} IS NULL OR {key} NOT IN "
                    f"(SELECT {value} FROM {source} WHERE {value} IS NOT NULL) LIMIT 1"
                )
                if cursor.fetchall():
                    return False
        return True

    def schema_items(self) -> list[SchemaItem]:
        """Each table with its columns and the tables its foreign keys refer to."""
        return [
            SchemaItem(
                table.name,
                tuple(column.name for column in table.columns),
                tuple(key.ref_table for key in table.foreign_keys),
            )
            for table in self.database.tables
        ]

    @contextmanager
    def cursor(self, timeout_seconds: float) -> Iterator[Any]:
        """A cursor that can only read and stops at the deadline."""
        engine = self.database.engine
        if self.dialect == "sqlite" and self.database.path:
            sqlite_connection = guarded.open_read_only_sqlite(self.database.path)
            try:
                with guarded.sqlite_deadline(sqlite_connection, timeout_seconds):
                    yield sqlite_connection.cursor()
            finally:
                sqlite_connection.close()
        elif self.dialect == "duckdb":
            raw = engine.raw_connection()  # read-only, no external access: see the loader
            try:
                with guarded.duckdb_deadline(raw.driver_connection, timeout_seconds):
                    yield raw.driver_connection.cursor()
            finally:
                raw.close()
        else:
            raw = engine.raw_connection()
            try:
                if self.dialect == "postgresql":
                    with guarded.postgres_read_only_cursor(raw, timeout_seconds) as cursor:
                        yield cursor
                else:
                    cursor = raw.cursor()
                    try:
                        yield cursor
                    finally:
                        raw.rollback()
            finally:
                raw.close()


@dataclass
class TablesTarget:
    """SQL over flat tables (or a KG's BOXes) copied into one locked-down
    in-memory SQLite database."""

    tables: dict[str, pd.DataFrame]
    foreign_keys: dict[str, list[ForeignKey]] = field(default_factory=dict)
    """Per table, the keys the schema declares (a KG's BOXes have them)."""
    dialect: str = "sqlite"
    _connection: sqlite3.Connection = field(init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        self._connection = sqlite3.connect(":memory:", check_same_thread=False)
        for name, frame in self.tables.items():
            self._connection.execute(create_table_ddl(name, frame, exact_names=True))
            placeholders = ", ".join("?" for _ in frame.columns)
            self._connection.executemany(
                f"INSERT INTO {quote_identifier(name)} VALUES ({placeholders})",
                _sqlite_rows(frame),
            )
        self._connection.commit()
        guarded.lock_down_sqlite(self._connection)

    def render_ddl(self) -> str:
        """The tables' schema as DDL, with their foreign keys."""
        return "\n\n".join(
            create_table_ddl(name, frame, foreign_keys=self.foreign_keys.get(name, ()))
            for name, frame in self.tables.items()
        )

    def joined_views(self) -> list[JoinedView]:
        """None: joined views are built from a database's declared keys."""
        return []

    def render_views_ddl(self) -> list[str]:
        """None: no joined views over copied tables."""
        return []

    def view_loses_no_row(self, view: JoinedView) -> bool:
        """Never asked: copied tables have no joined views."""
        return False

    def schema_items(self) -> list[SchemaItem]:
        """Each table with its columns and the tables its foreign keys refer to."""
        return [
            SchemaItem(
                name,
                tuple(map(str, frame.columns)),
                tuple(key.ref_box for key in self.foreign_keys.get(name, ())),
            )
            for name, frame in self.tables.items()
        ]

    @contextmanager
    def cursor(self, timeout_seconds: float) -> Iterator[Any]:
        """A cursor on the shared in-memory database, one query at a time."""
        with self._lock, guarded.sqlite_deadline(self._connection, timeout_seconds):
            yield self._connection.cursor()


def _sqlite_rows(frame: pd.DataFrame) -> Iterator[tuple[Any, ...]]:
    """Rows as SQLite values: missing as NULL, timestamps as ISO text, numbers as Python numbers."""
    converted = frame.astype(object).where(frame.notna(), None)
    for row in converted.itertuples(index=False, name=None):
        yield tuple(_sqlite_value(value) for value in row)


def _sqlite_value(value: Any) -> Any:
    if isinstance(value, pd.Timestamp):
        return value.isoformat(sep=" ")
    if hasattr(value, "item"):
        return value.item()
    return value


SqlTarget = DatabaseTarget | TablesTarget

SQLITE_MAX_COLUMNS = 2000
"""SQLite's default SQLITE_MAX_COLUMN: a table may have at most this many columns."""


def _check_width(location: str, name: str, frame: pd.DataFrame) -> None:
    """Refuse, in one line, a table SQLite cannot hold (too many columns)."""
    if len(frame.columns) > SQLITE_MAX_COLUMNS:
        raise BadInputError(
            f"{location}: table {name!r} has {len(frame.columns):,} columns; SQL over flat "
            f"tables holds at most {SQLITE_MAX_COLUMNS:,} (SQLite's limit): use the pandas "
            "representation for this table"
        )


def workspace_sql_target(workspace: Workspace, focus: Focus | None = None) -> SqlTarget:
    """The place SQL over `workspace` runs, over a KG the BOXes of the
    subgraph `focus` selects (a KG without a focus shows no tables, as in
    pandas); built once per workspace, and per focus when a KG is loaded."""
    if not any(source.kind == "kg" for source in workspace.sources):
        focus = None  # tables and databases are the same for every question
    return workspace.derived("sql_target", focus, lambda: _build_target(workspace, focus))


def _build_target(workspace: Workspace, focus: Focus | None) -> SqlTarget:
    kinds = {source.kind for source in workspace.sources}
    if not workspace.sources:
        raise BadInputError("no source loaded; SQL needs a database or tables")
    if kinds == {"table"}:
        tables: dict[str, pd.DataFrame] = {}
        for source in workspace.sources:
            for name, frame in source.handle.items():
                if name in tables:
                    name = f"{source.name}_{name}"
                _check_width(source.location, name, frame)
                tables[name] = frame
        return TablesTarget(tables)
    if kinds <= {"table", "kg"}:
        return _boxes_target(workspace, focus)
    databases = [source for source in workspace.sources if source.kind == "database"]
    if len(workspace.sources) != 1:
        names = ", ".join(source.name for source in databases)
        raise BadInputError(
            "SQL runs on one database at a time, or on flat tables and knowledge graphs "
            f"together; loaded: {names}"
        )
    return DatabaseTarget(databases[0].handle)


def _boxes_target(workspace: Workspace, focus: Focus | None) -> TablesTarget:
    """The workspace's BOXes (`plugins.pandas_box`) as tables, with their keys."""
    from plugins.pandas_box import workspace_boxes

    boxes = workspace_boxes(workspace, focus)
    for box in boxes:
        _check_width(box.origin, box.name, box.frame)
    return TablesTarget(
        {box.name: box.frame for box in boxes},
        {box.name: box.foreign_keys for box in boxes if box.foreign_keys},
    )
