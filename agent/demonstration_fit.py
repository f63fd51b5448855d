"""Which demonstrations fit a question's schema.

A demonstration that joins three tables, shown for a question over one
table, teaches the small model to join anyway: on WikiTableQuestions 18 of
38 SQL programs joined a one-table schema to itself or to a table copied
from a Spider demonstration (docs/evaluation.md). A demonstration is shown
only when it reads no more tables than the question's schema has.
"""

from __future__ import annotations

import ast

import sqlglot
from sqlglot import exp

from agent.state import ShownDemonstration


def tables_read(demonstration: ShownDemonstration) -> int | None:
    """How many tables a demonstration's program reads: for SQL the distinct
    tables it names, or more when one SELECT joins more (a self-join reads
    its table twice); one plus its merges for pandas; None when it cannot
    be told."""
    if demonstration.representation == "sql":
        try:
            tree = sqlglot.parse_one(demonstration.code, read="sqlite")
        except sqlglot.errors.SqlglotError:
            return None
        distinct = len({table.name.lower() for table in tree.find_all(exp.Table)})
        joined = max(
            (
                _has_from(select) + len(select.args.get("joins") or [])
                for select in tree.find_all(exp.Select)
            ),
            default=0,
        )
        return max(distinct, joined) or None
    if demonstration.representation == "pandas":
        try:
            tree = ast.parse(demonstration.code)
        except SyntaxError:
            return None
        merges = sum(
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "merge"
            for node in ast.walk(tree)
        )
        return 1 + merges
    return None


def fitting(
    demonstrations: list[ShownDemonstration], schema_tables: int, k: int
) -> list[ShownDemonstration]:
    """The first `k` demonstrations that read at most `schema_tables` tables
    (those whose count cannot be told are kept)."""
    kept = [
        demonstration
        for demonstration in demonstrations
        if (tables_read(demonstration) or 0) <= schema_tables
    ]
    return kept[:k]


def _has_from(select: exp.Select) -> int:
    """1 when the SELECT has a FROM clause (sqlglot names the key `from_`,
    older releases `from`), else 0."""
    return int(bool(select.args.get("from_") or select.args.get("from")))
