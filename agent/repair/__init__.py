"""Repair before retry: a program that failed on a name the schema does not
have gets that name replaced by the one nearest name of the schema in scope,
when there is exactly one, and runs again with no LLM call.

SQL is repaired through sqlglot's syntax tree (`agent.repair.sql`), pandas
through Python's (`agent.repair.pandas`); both only ever rename: a repair
that cannot decide returns None and the LLM gets the feedback instead.
A program that ran to nothing because a text literal is no value of the
data (`'Female'` for `female`) gets the value written in its place
(`agent.repair.literals`). A SQL program that ran to rows and keeps one by
`ORDER BY ... LIMIT 1` although its question asks for "year(s)" returns
every row tied with the first instead (`agent.repair.sql_ties`).
"""

from __future__ import annotations

from dataclasses import dataclass

from plugins import Box


@dataclass(frozen=True)
class Repair:
    """The repaired program and what was replaced, as `old -> new` lines."""

    code: str
    changes: tuple[str, ...]


def repair_program(
    code: str, language: str, error_type: str, message: str, boxes: list[Box], dialect: str
) -> Repair | None:
    """The program with the name `message` complains about replaced, or None
    when nothing can be decided. `boxes` are the schema in scope (tables of
    SQL, BOXes of pandas); `dialect` is the SQL dialect (sqlglot's name)."""
    if language == "sql":
        from agent.repair.sql import repair_sql

        return repair_sql(code, message, boxes, dialect)
    if language == "python":
        from agent.repair.pandas import repair_pandas

        return repair_pandas(code, error_type, message, boxes)
    return None
