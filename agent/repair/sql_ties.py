"""Every row tied with the first when the question asks for "X(s)".

"In which year(s) did Ramy Ashour win the highest number of medals?" allows
several answers, yet small models write `... GROUP BY T1.year ORDER BY
COUNT(*) DESC LIMIT 1`, which keeps one of two tied years (TempTabQA-C,
gold "2009, 2013"). When the question has a word ending in `(s)` or `(es)`
and the outermost SELECT ends with `ORDER BY <keys> LIMIT 1` (no OFFSET),
the LIMIT goes and each ORDER BY key must equal the key of the top row, read
by a scalar subquery that is the original query (LIMIT 1 kept) with the key
as an extra column, `pandora_top_key`. The condition goes to HAVING when the
query groups, else to WHERE (ANDed with what is there); ORDER BY stays (the
repair node puts the original back when its first row is not among the
rewrite's, `agent.nodes.repair`). An ORDER BY alias of the select list
(`ORDER BY n`) is compared as the expression it names (`COUNT(*)`).

The comparison is null-safe (sqlglot's `NullSafeEQ`: `IS` in SQLite, `IS
NOT DISTINCT FROM` in DuckDB): when the top row's key is NULL the rows tied
with it are the rows whose key is NULL, where `=` would keep no row at all.

Anything unclear is left to the LLM (None): several statements, a compound
query (UNION ...), OFFSET, a LIMIT other than 1, ORDER BY a position, a key
holding a subquery or a random number, a window function, DISTINCT ON, or
an aggregate in a query that does not group (it has one row anyway).
"""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp

from agent.repair import Repair

SEVERAL = re.compile(r"\b\w+\((?:e?s)\)", re.IGNORECASE)
"""A word the question writes with an optional plural ending: `year(s)`, `match(es)`."""
TOP_KEY = "pandora_top_key"
TOP_ROW = "pandora_top_row"


def asks_for_several(question: str) -> bool:
    """Whether `question` allows several answers by writing a word as `year(s)`,
    the one sign the router reads before the program is parsed."""
    return SEVERAL.search(question) is not None


def keep_ties(code: str, question: str, dialect: str) -> Repair | None:
    """`code` returning every row tied with its first on the ORDER BY keys
    instead of `LIMIT 1`, when `question` asks for several answers; None
    when the question does not or the query is not plainly `... ORDER BY
    <keys> LIMIT 1`. `dialect` is sqlglot's name of the SQL dialect."""
    asked = SEVERAL.search(question)
    if asked is None:
        return None
    query = _single_select(code, dialect)
    if query is None or not _ends_with_limit_one(query):
        return None
    keys = _order_keys(query)
    if keys is None:
        return None
    grouped = query.args.get("group") is not None
    aggregated = any(part.find(exp.AggFunc) for part in [*query.expressions, *keys])
    if not grouped and (aggregated or query.args.get("having") is not None):
        return None
    condition = exp.and_(
        *(exp.NullSafeEQ(this=key, expression=_top_key(query, key)) for key in keys)
    )
    query.set("limit", None)
    if grouped:
        query.having(condition, copy=False)
    else:
        query.where(condition, copy=False)
    change = f"LIMIT 1 -> every row tied with the first (the question asks for {asked.group(0)})"
    return Repair(query.sql(dialect=dialect), (change,))


def _single_select(code: str, dialect: str) -> exp.Select | None:
    """The program's one statement when it is a plain SELECT (not a UNION, not
    in parentheses) with no window function, QUALIFY or DISTINCT ON; else None."""
    try:
        statements = [statement for statement in sqlglot.parse(code, read=dialect) if statement]
    except sqlglot.errors.SqlglotError:
        return None
    if len(statements) != 1 or not isinstance(statements[0], exp.Select):
        return None
    query = statements[0]
    distinct = query.args.get("distinct")
    if query.find(exp.Window) or query.args.get("qualify") is not None:
        return None
    if distinct is not None and distinct.args.get("on") is not None:
        return None
    return query


def _ends_with_limit_one(query: exp.Select) -> bool:
    """Whether the query ends with `ORDER BY ... LIMIT 1` and no OFFSET."""
    limit = query.args.get("limit")
    if query.args.get("order") is None or not isinstance(limit, exp.Limit):
        return False
    if query.args.get("offset") is not None or limit.args.get("offset") is not None:
        return False
    count = limit.expression
    return isinstance(count, exp.Literal) and count.is_int and count.to_py() == 1


def _order_keys(query: exp.Select) -> list[exp.Expression] | None:
    """The ORDER BY keys, each alias of the select list replaced by the
    expression it names; None for a position, a subquery or a random key."""
    aliases = {
        projection.alias.lower(): projection.this
        for projection in query.expressions
        if isinstance(projection, exp.Alias)
    }

    def resolved(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Column) and not node.table and node.name.lower() in aliases:
            return aliases[node.name.lower()].copy()
        return node

    keys = []
    for ordered in query.args["order"].expressions:
        key = ordered.this
        if isinstance(key, exp.Literal) or key.find(exp.Query, exp.Rand):
            return None
        keys.append(key.copy().transform(resolved))
    return keys


def _top_key(query: exp.Select, key: exp.Expression) -> exp.Expression:
    """`(SELECT pandora_top_key FROM (<query with key as an extra column>))`:
    the key of the query's first row. The query's CTEs stay where they are
    (a subquery sees them)."""
    inner = query.copy()
    inner.set("with_", None)
    inner.select(exp.alias_(key.copy(), TOP_KEY), copy=False)
    return exp.select(TOP_KEY).from_(inner.subquery(TOP_ROW)).subquery()
