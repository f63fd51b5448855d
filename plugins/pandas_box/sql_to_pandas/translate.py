"""`translate_sql`: one SQL query over a database -> a readable pandas program over its BOXes."""

from __future__ import annotations

import sqlglot
from pydantic import BaseModel
from sqlglot import exp
from sqlglot.errors import ParseError

from plugins.model import Box
from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.program import Program
from plugins.pandas_box.sql_to_pandas.queries import QueryTranslator
from plugins.pandas_box.sql_to_pandas.scope import Catalog


class Translation(BaseModel):
    """A pandas program assigning `result`, and its reasoning steps (the code's comments)."""

    code: str
    reasoning: str


def translate_sql(sql: str, boxes: list[Box]) -> Translation:
    """Translate one SQLite query into pandas over `boxes`, without an LLM.

    The program mirrors the query clause by clause, with a `#` comment per
    step; raises `UntranslatableSql` naming the first construct it cannot
    translate (the caller then falls back to an LLM).
    """
    query = parse_query(sql)
    program = Program()
    QueryTranslator(Catalog.of(boxes), program).query(query, "result")
    return Translation(code=program.code, reasoning="\n".join(program.steps))


def parse_query(sql: str) -> exp.Expression:
    """The single query of `sql` (SQLite dialect)."""
    try:
        statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
    except ParseError as error:
        first_line = str(error).splitlines()[0] if str(error) else "syntax error"
        raise UntranslatableSql("SQL that does not parse", first_line) from None
    if len(statements) != 1:
        raise UntranslatableSql("several statements", f"{len(statements)} found")
    statement = statements[0]
    if not isinstance(statement, exp.Query):
        raise UntranslatableSql(f"a {statement.key.upper()} statement", "only queries are read")
    return statement
