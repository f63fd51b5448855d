"""`run_query`: one read-only SQL query over a workspace, bounded in time and rows."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from plugins.errors import PandoraError
from plugins.model import Focus
from plugins.sql_schema.joined_view_sql import with_view_definitions
from plugins.sql_schema.shown_names import restore_shown_names
from plugins.sql_schema.statement_check import check_read_only_query
from plugins.sql_schema.targets import workspace_sql_target
from plugins.workspace import Workspace

DEFAULT_TIMEOUT_SECONDS = 10.0
DEFAULT_MAX_ROWS = 10_000


@dataclass
class QueryResult:
    """Columns and rows of a query; `truncated` when more rows existed than were kept.

    A plain dataclass, not a pydantic model: `run_query` builds it from values
    it already typed, and `pandora sql` should not pay for importing pydantic.
    """

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    elapsed_ms: float = 0.0


class QueryFailed(PandoraError):
    """The database refused or failed the query (syntax, unknown column, time limit...)."""


def run_query(
    workspace: Workspace,
    query: str,
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
    max_rows: int = DEFAULT_MAX_ROWS,
    focus: Focus | None = None,
) -> QueryResult:
    """Run one read-only `query` on the workspace's database or tables (a
    KG's: the BOXes of the subgraph `focus` selects).

    A name quoted as the schema shows it (control characters escaped) means
    the real name, and a joined view's name the view
    (`plugins.sql_schema.joined_view_sql`). Raises QueryRefused
    (statement_check) for anything but a single read-only query, and
    QueryFailed when the database reports an error or the time runs out.
    """
    target = workspace_sql_target(workspace, focus)
    names = (name for item in target.schema_items() for name in (item.name, *item.fields))
    query = restore_shown_names(query, target.dialect, names)
    check_read_only_query(query, target.dialect)
    query = with_view_definitions(query, target.joined_views(), target.dialect)
    started = time.perf_counter()
    try:
        with target.cursor(timeout_seconds) as cursor:
            cursor.execute(query)
            columns = [str(column[0]) for column in cursor.description or []]
            rows = cursor.fetchmany(max_rows + 1)
    except Exception as error:
        if isinstance(error, PandoraError):
            raise
        raise QueryFailed(_describe_failure(error, timeout_seconds)) from None
    elapsed_ms = (time.perf_counter() - started) * 1000
    truncated = len(rows) > max_rows
    return QueryResult(
        columns=columns,
        rows=[list(row) for row in rows[:max_rows]],
        truncated=truncated,
        elapsed_ms=elapsed_ms,
    )


def _describe_failure(error: Exception, timeout_seconds: float) -> str:
    message = " ".join(str(error).split()) or type(error).__name__
    lowered = message.lower()
    if "interrupt" in lowered or "statement timeout" in lowered or "canceling statement" in lowered:
        return f"query stopped after the {timeout_seconds:g} s time limit"
    if "not authorized" in lowered or "read-only" in lowered or "read only" in lowered:
        return f"only reading is allowed: {message}"
    return message
