"""The `sql` representation (TempTabQA-C): the schema as DDL, one read-only query.

The LLM sees tables, columns, types and keys but no values, which keeps the
prompt small and robust however many rows the tables hold; it writes one
SELECT that `run_query` executes behind read-only guards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from plugins.errors import PandoraError
from plugins.hookspecs import hookimpl
from plugins.model import Focus
from plugins.sql_schema.query import QueryFailed, QueryResult, run_query
from plugins.sql_schema.statement_check import QueryRefused
from plugins.sql_schema.targets import workspace_sql_target
from plugins.workspace import Workspace

__all__ = ["QueryFailed", "QueryRefused", "QueryResult", "SqlSchemaRepresentation", "run_query"]


class SqlSchemaRepresentation:
    """Schema-only DDL; the generated code is one read-only SQL query."""

    name = "sql"
    description = "the relational schema as DDL (keys, types, no values); code is one SELECT"
    kinds = ("table", "database")
    language = "sql"

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        """`CREATE TABLE` statements of the database or of the flat tables; never values."""
        return workspace_sql_target(workspace).render_ddl()

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        """SQL code is not Python: it runs through `run_query`, never in a namespace."""
        raise PandoraError("the sql representation runs SQL through run_query, not Python code")

    def run_query(
        self, workspace: Workspace, query: str, timeout_seconds: float, max_rows: int
    ) -> QueryResult:
        """Run one read-only query (see `plugins.sql_schema.query.run_query`)."""
        return run_query(workspace, query, timeout_seconds, max_rows)


@hookimpl
def register_representations(register: Callable[..., None]) -> None:
    """The built-in `sql` representation."""
    register(SqlSchemaRepresentation())
