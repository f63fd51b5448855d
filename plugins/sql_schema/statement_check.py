"""Refusing every SQL text that is not exactly one read-only query.

The check parses with sqlglot in the target's dialect: one statement, whose
root is a query (SELECT, WITH ... SELECT, UNION, ...), with no writing or
schema-changing node anywhere inside it (a CTE may hide a DELETE on
PostgreSQL; `SELECT ... INTO` creates a table). The database-level guards
(authorizer, read-only transaction) stand behind this check, not instead.
"""

from __future__ import annotations

import logging

import sqlglot
from sqlglot import exp

from plugins.errors import PandoraError

FORBIDDEN_NODES: tuple[type[exp.Expression], ...] = (
    exp.Insert,
    exp.Update,
    exp.Delete,
    exp.Merge,
    exp.Create,
    exp.Drop,
    exp.Alter,
    exp.Command,
    exp.Pragma,
    exp.Into,
    exp.Set,
    exp.Use,
    exp.Copy,
    exp.Attach,
    exp.Detach,
    exp.LoadData,
    exp.Transaction,
    exp.Commit,
    exp.Rollback,
)
logging.getLogger("sqlglot").setLevel(logging.ERROR)  # its fallback warnings are noise here

SQLGLOT_DIALECTS = {"sqlite": "sqlite", "duckdb": "duckdb", "postgresql": "postgres"}


class QueryRefused(PandoraError):
    """The SQL text is not one read-only query; nothing was run."""


def check_read_only_query(query: str, dialect: str) -> None:
    """Raise QueryRefused unless `query` is exactly one read-only statement."""
    if not query.strip():
        raise QueryRefused("empty query; write one SELECT statement")
    try:
        statements = [s for s in sqlglot.parse(query, read=SQLGLOT_DIALECTS.get(dialect)) if s]
    except sqlglot.errors.SqlglotError as error:
        first = " ".join(str(error).split())[:200]
        raise QueryRefused(f"cannot parse the query: {first}") from None
    if len(statements) != 1:
        raise QueryRefused(f"expected one statement, found {len(statements)}; send one SELECT")
    statement = statements[0]
    if not isinstance(statement, exp.Query):
        kind = statement.key.upper()
        raise QueryRefused(f"only SELECT queries are allowed, not {kind}")
    for node in statement.walk():
        if isinstance(node, FORBIDDEN_NODES):
            raise QueryRefused(f"only reading is allowed; the query contains {node.key.upper()}")
