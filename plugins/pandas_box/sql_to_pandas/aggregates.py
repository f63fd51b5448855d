"""Aggregates in a query: finding them, their parts, and their pandas methods."""

from __future__ import annotations

from collections.abc import Iterator

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.contexts import column_sql
from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.expressions import Expr, construct_name
from plugins.pandas_box.sql_to_pandas.naming import sql_text

AGGREGATE_FUNCTIONS = {
    exp.Count: "count",
    exp.Sum: "sum",
    exp.Avg: "avg",
    exp.Min: "min",
    exp.Max: "max",
}


def outside_subqueries(node: exp.Expression) -> Iterator[exp.Expression]:
    """Every node of `node`'s tree that is not inside a nested query."""
    yield node
    for child in node.iter_expressions():
        if isinstance(child, exp.Query | exp.Subquery):
            continue
        yield from outside_subqueries(child)


def aggregates_in(node: exp.Expression) -> list[exp.AggFunc]:
    """The aggregates of an expression, not counting those of its subqueries."""
    return [part for part in outside_subqueries(node) if isinstance(part, exp.AggFunc)]


def columns_outside_aggregates(node: exp.Expression) -> list[exp.Column]:
    """Columns an expression uses directly, outside aggregates and subqueries."""
    if isinstance(node, exp.AggFunc | exp.Query | exp.Subquery):
        return []
    if isinstance(node, exp.Column):
        return [] if isinstance(node.this, exp.Star) else [node]
    return [
        column for child in node.iter_expressions() for column in columns_outside_aggregates(child)
    ]


def aggregate_parts(node: exp.AggFunc) -> tuple[str, exp.Expression | None, bool]:
    """(function, argument or None for COUNT(*), whether DISTINCT)."""
    function = next(
        (name for kind, name in AGGREGATE_FUNCTIONS.items() if isinstance(node, kind)), None
    )
    if function is None:
        raise UntranslatableSql(f"the aggregate {construct_name(node)}", sql_text(node))
    argument = node.this
    distinct = isinstance(argument, exp.Distinct)
    if distinct:
        if len(argument.expressions) != 1:
            raise UntranslatableSql("DISTINCT over several values", sql_text(node))
        argument = argument.expressions[0]
    if isinstance(argument, exp.Star) or (
        function == "count" and isinstance(argument, exp.Literal)
    ):
        return function, None, distinct
    return function, argument, distinct


def numeric_if_text(values: Expr, function: str) -> str:
    """SUM and AVG read text as numbers in SQLite; pandas must be told."""
    if values.kind == "text" and function in ("sum", "avg"):
        return f"pd.to_numeric({values.code}, errors='coerce')"
    return values.code


def aggregate_method(function: str, distinct: bool) -> str:
    """The pandas method of an aggregate; SUM of nothing is NULL in SQL, so min_count=1."""
    if function == "count":
        return "nunique()" if distinct else "count()"
    return {"sum": "sum(min_count=1)", "avg": "mean()", "min": "min()", "max": "max()"}[function]


def unique_by_sql(nodes: list) -> list:
    """Nodes with distinct SQL text, first occurrence kept."""
    seen: dict[str, exp.Expression] = {}
    for node in nodes:
        seen.setdefault(column_sql(node), node)
    return list(seen.values())
