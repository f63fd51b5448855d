"""Refusing every SQL text that is not exactly one read-only query.

The check parses with sqlglot in the target's dialect: one statement, whose
root is a query (SELECT, WITH ... SELECT, UNION, ...), with no writing or
schema-changing node anywhere inside it (a CTE may hide a DELETE on
PostgreSQL; `SELECT ... INTO` creates a table). The database-level guards
(authorizer, read-only transaction) stand behind this check, not instead.
"""

from __future__ import annotations

import logging
import re

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

FORMAT_FUNCTIONS = frozenset({"printf", "format"})
MAX_FORMAT_WIDTH = 1000
FORMAT_SPEC = re.compile(r"%[-+ 0#,!]*(\*|\d+)?(?:\.(\*|\d+))?")
"""A printf conversion's width and precision: `%.*c` with 2e9 builds a string
of 2 GB inside one function call, where no deadline check can stop it."""
MAX_GENERATED_LENGTH = 1_000_000
"""The longest string or blob `repeat`, `lpad`, `rpad`, `space`, `zeroblob`
or `randomblob` may build: a literal count up to this, never a computed one
(one call of `repeat('x', 2e9)` allocates 2 GB before any deadline check)."""
GENERATED_LENGTH_ARGUMENTS = {
    exp.Repeat: "times",
    exp.Pad: "expression",
    exp.Space: "this",
}
GENERATING_FUNCTIONS = frozenset({"zeroblob", "randomblob", "repeat", "lpad", "rpad", "space"})
BRACE_SPEC = re.compile(r"\{[^{}]*:([^{}]*)\}|\{[^{}]*\{")
"""DuckDB's `{:>N}` replacement fields, and nested (run-time) widths."""


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
        _check_format_call(node)
        _check_generated_length(node)


def _check_generated_length(node: exp.Expression) -> None:
    """A function that builds a string of a given length gets a literal length
    up to MAX_GENERATED_LENGTH."""
    length: exp.Expression | None = None
    if type(node) in GENERATED_LENGTH_ARGUMENTS:
        length = node.args.get(GENERATED_LENGTH_ARGUMENTS[type(node)])
        name = (
            ("lpad" if node.args.get("is_left") else "rpad")
            if isinstance(node, exp.Pad)
            else node.key
        )
    elif isinstance(node, exp.Anonymous) and str(node.this).lower() in GENERATING_FUNCTIONS:
        name = str(node.this).lower()
        position = 0 if name in {"zeroblob", "randomblob", "space"} else 1
        length = node.expressions[position] if len(node.expressions) > position else None
    else:
        return
    if length is None:
        return
    literal = length.this if isinstance(length, exp.Neg) else length
    if not (isinstance(literal, exp.Literal) and not literal.is_string):
        raise QueryRefused(f"{name}() needs a literal length (at most {MAX_GENERATED_LENGTH:,})")
    if float(literal.this) > MAX_GENERATED_LENGTH:
        raise QueryRefused(f"{name}() may build at most {MAX_GENERATED_LENGTH:,} characters")


def _check_format_call(node: exp.Expression) -> None:
    """printf / format: a literal template whose widths and precisions are
    numbers of at most MAX_FORMAT_WIDTH."""
    if isinstance(node, exp.Format):
        template = node.this
    elif isinstance(node, exp.Anonymous) and str(node.this).lower() in FORMAT_FUNCTIONS:
        template = node.expressions[0] if node.expressions else None
    else:
        return
    if not (isinstance(template, exp.Literal) and template.is_string):
        raise QueryRefused("printf/format need a literal format string")
    numbers = [n for pair in FORMAT_SPEC.findall(template.this) for n in pair if n]
    for match in BRACE_SPEC.finditer(template.this):
        numbers += re.findall(r"\d+", match.group(1)) if match.group(1) is not None else ["*"]
    if any(number == "*" or int(number) > MAX_FORMAT_WIDTH for number in numbers):
        raise QueryRefused(
            f"printf/format widths and precisions must be numbers up to {MAX_FORMAT_WIDTH}"
        )
