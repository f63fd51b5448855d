"""Verifying a translation: run the SQL and the pandas through the executor, compare."""

from __future__ import annotations

from pydantic import BaseModel

from plugins.executor import ExecutionResult, execute
from plugins.pandas_box.sql_to_pandas.comparison import query_is_ordered, rows_match
from plugins.pandas_box.sql_to_pandas.translate import Translation
from plugins.workspace import Workspace


class Verification(BaseModel):
    """The outcome of running a gold query and its translation on the same data."""

    equal: bool
    sql_error: str | None = None
    pandas_error: str | None = None
    sql_ms: float = 0.0
    pandas_ms: float = 0.0
    sql_rows: list[list[object]] | None = None
    pandas_rows: list[list[object]] | None = None


def verify_translation(
    sql: str, translation: Translation, workspace: Workspace, timeout_seconds: float = 30.0
) -> Verification:
    """Run `sql` and `translation.code` in the sandbox on `workspace`; equal when both
    ran and their rows match (in order only when the SQL has a top-level ORDER BY)."""
    from_sql = execute(sql, workspace, "sql", timeout_seconds=timeout_seconds)
    from_pandas = execute(translation.code, workspace, "pandas", timeout_seconds=timeout_seconds)
    equal = (
        from_sql.result is not None
        and from_pandas.result is not None
        and rows_match(from_pandas.result, from_sql.result, query_is_ordered(sql))
    )
    return Verification(
        equal=equal,
        sql_error=error_text(from_sql),
        pandas_error=error_text(from_pandas),
        sql_ms=from_sql.elapsed_ms,
        pandas_ms=from_pandas.elapsed_ms,
        sql_rows=from_sql.result,
        pandas_rows=from_pandas.result,
    )


def error_text(result: ExecutionResult) -> str | None:
    """`Type: message` of a failed run, None when it ran."""
    if result.error is None:
        return None
    return f"{result.error.type}: {result.error.message}"
