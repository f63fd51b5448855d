"""The `sql` representation (TempTabQA-C): the schema as DDL, one read-only query.

The LLM sees tables, columns, types and keys but no values, which keeps the
prompt small and robust however many rows the tables hold; it writes one
SELECT that `run_query` executes behind read-only guards. A knowledge graph
is shown as the tables of its question's BOXes (`targets`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plugins.errors import PandoraError
from plugins.hookspecs import hookimpl
from plugins.model import Focus, SchemaItem, Vocabulary
from plugins.representation_defaults import RepresentationDefaults
from plugins.sql_schema.prompts import ROW_ORDER_NOTE, SQL_INSTRUCTION, VOCABULARY_MAX_ROWS
from plugins.workspace import Workspace

if TYPE_CHECKING:
    from plugins.joined_views import JoinedView
    from plugins.sql_schema.query import QueryFailed, QueryResult, run_query
    from plugins.sql_schema.statement_check import QueryRefused

__all__ = ["QueryFailed", "QueryRefused", "QueryResult", "SqlSchemaRepresentation", "run_query"]

# sqlglot and SQLAlchemy load when SQL is first used, not when the plugin registers
MODULE_OF_EXPORT = {
    "QueryFailed": "plugins.sql_schema.query",
    "QueryResult": "plugins.sql_schema.query",
    "run_query": "plugins.sql_schema.query",
    "QueryRefused": "plugins.sql_schema.statement_check",
}


def __getattr__(name: str) -> Any:
    """Import the module defining an exported name when it is first asked for."""
    if name not in MODULE_OF_EXPORT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(MODULE_OF_EXPORT[name]), name)


class SqlSchemaRepresentation(RepresentationDefaults):
    """Schema-only DDL; the generated code is one read-only SQL query."""

    name = "sql"
    description = (
        "the relational schema as DDL (keys, types, optional example rows); code is one SELECT"
    )
    kinds = ("table", "database", "kg")
    language = "sql"
    schema_heading = "## Database schema"

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        """`CREATE TABLE` statements of the database, of the flat tables or of
        the KG's BOXes for `focus`, with `values` example rows under each
        table (none by default)."""
        from plugins.sql_schema.example_rows import ddl_with_example_rows
        from plugins.sql_schema.targets import workspace_sql_target

        return ddl_with_example_rows(workspace_sql_target(workspace, focus), values)

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        """SQL code is not Python: it runs through `run_query`, never in a namespace."""
        raise PandoraError("the sql representation runs SQL through run_query, not Python code")

    def run_query(
        self,
        workspace: Workspace,
        query: str,
        timeout_seconds: float,
        max_rows: int,
        focus: Focus | None = None,
    ) -> QueryResult:
        """Run one read-only query (see `plugins.sql_schema.query.run_query`)."""
        from plugins.sql_schema.query import run_query

        return run_query(workspace, query, timeout_seconds, max_rows, focus)

    def instruction(self, workspace: Workspace) -> str:
        """How to write one read-only query, in the dialect `workspace`'s SQL
        runs in; over flat tables alone, how to read their row order."""
        from plugins.sql_schema.targets import workspace_sql_target

        instruction = SQL_INSTRUCTION.format(dialect=workspace_sql_target(workspace).dialect)
        if {source.kind for source in workspace.sources} == {"table"}:
            instruction += "\n" + ROW_ORDER_NOTE
        return instruction

    def schema_items(self, workspace: Workspace, focus: Focus | None = None) -> list[SchemaItem]:
        """The tables of the database (or the flat tables, or the KG's BOXes
        for `focus`) with their columns and keys, then its joined views,
        referring to the tables they join; whether a view loses no row is
        checked when first asked (`view_loses_no_row`)."""
        from plugins.sql_schema.targets import workspace_sql_target

        target = workspace_sql_target(workspace, focus)
        views = [
            SchemaItem(
                view.name,
                tuple(column.name for column in view.columns),
                view.tables,
                joins=view.tables,
                loses_no_row=lambda view=view: view_loses_no_row(workspace, focus, view),
            )
            for view in target.joined_views()
        ]
        return [*target.schema_items(), *views]

    def vocabulary(self, workspace: Workspace, focus: Focus | None = None) -> Vocabulary:
        """The data as BOXes, joined views included, where feedback finds the
        nearest table, column and value (and repair the names it may use);
        nothing over a database of more than VOCABULARY_MAX_ROWS rows."""
        from plugins.loaders.row_counts import database_rows
        from plugins.pandas_box import workspace_boxes, workspace_view_boxes

        sizes = (database_rows(workspace, source) for source in workspace.sources)
        if any(rows > VOCABULARY_MAX_ROWS for rows in sizes):
            return Vocabulary()
        views = [joined.box for joined in workspace_view_boxes(workspace, focus)]
        return Vocabulary(boxes=[*workspace_boxes(workspace, focus), *views])


def view_loses_no_row(workspace: Workspace, focus: Focus | None, view: JoinedView) -> bool:
    """Whether every row of every table `view` joins is in it, checked on the
    data once per workspace, and only on databases of at most
    VOCABULARY_MAX_ROWS rows (False past that: no query is spent on them)."""
    from plugins.loaders.row_counts import database_rows
    from plugins.sql_schema.targets import workspace_sql_target

    if any(database_rows(workspace, source) > VOCABULARY_MAX_ROWS for source in workspace.sources):
        return False
    return workspace.derived(
        ("joined view loses no row", view.name),
        focus,
        lambda: workspace_sql_target(workspace, focus).view_loses_no_row(view),
    )


@hookimpl
def register_representations(register: Callable[..., None]) -> None:
    """The built-in `sql` representation."""
    register(SqlSchemaRepresentation())
