"""Scoring one predicted answer against an example's gold, with the task's metric,
and naming the error when it is wrong (the paper's error analysis).

Answers are rows. Value-based metrics (denotation, Hit@1, F1, TempTabQA-C)
read a list of values: the single column when there is one; with several
columns (an index label next to its value, as DESIGN.md's results keep),
each column is tried and the best counts. Execution-based ones (Spider,
Spider4SPARQL) compare the rows themselves.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import sqlglot
from pydantic import BaseModel
from sqlglot import exp
from sqlglot.errors import ParseError

from evaluation.datasets.example import Example
from evaluation.metrics import (
    answer_f1,
    denotation_match,
    execution_match,
    hit_at_1,
    normalise_text,
    temptabqa_match,
)
from plugins.pandas_box.sql_to_pandas.comparison import query_is_ordered

SPARQL_DECIMALS = 4
METRIC_NAMES = {
    "spider": "execution accuracy",
    "wikisql": "execution accuracy (answer values)",
    "wikitq": "denotation accuracy",
    "spider4sparql": "execution accuracy",
    "webqsp": "Hit@1",
    "grailqa": "F1",
    "temptabqa": "exact match",
}
ERROR_CATEGORIES = ("execution error", "answer format", "wrong schema linking", "wrong logic")


class Score(BaseModel):
    """The metric's value (0..1) and whether it counts as correct."""

    value: float
    correct: bool


def score_answer(example: Example, rows: Sequence[Sequence[Any]], gold: list[list[Any]]) -> Score:
    """The task metric of `rows` against `gold` (rows of the gold answer)."""
    task = example.task
    if task == "spider":
        correct = execution_match(rows, gold, query_is_ordered(example.gold_sql or ""))
        return Score(value=float(correct), correct=correct)
    if task == "spider4sparql":
        rounded = [[_rounded(cell) for cell in row] for row in rows]
        ordered = "order by" in (example.gold_query or "").lower()
        correct = execution_match(rounded, gold, ordered)
        return Score(value=float(correct), correct=correct)
    gold_values = [row[0] if row else None for row in gold]
    candidates = value_columns(rows)
    if task in ("wikitq", "wikisql"):
        canonical = example.metadata.get("canonical")
        canonical_list = canonical if isinstance(canonical, list) else None
        correct = any(denotation_match(c, gold_values, canonical_list) for c in candidates)
        return Score(value=float(correct), correct=correct)
    if task == "webqsp":
        correct = any(hit_at_1(c, gold_values) for c in candidates)
        return Score(value=float(correct), correct=correct)
    if task == "grailqa":
        value = max((answer_f1(c, gold_values) for c in candidates), default=0.0)
        return Score(value=value, correct=value == 1.0)
    correct = any(temptabqa_match(c, gold_values[0] if gold_values else "") for c in candidates)
    return Score(value=float(correct), correct=correct)


def value_columns(rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """The answer as candidate lists of values: each of its columns (one when it has one)."""
    if not rows:
        return [[]]
    width = max(len(row) for row in rows)
    return [[row[index] for row in rows if index < len(row)] for index in range(width)]


def error_category(
    example: Example, rows: Sequence[Sequence[Any]], gold: list[list[Any]], code: str, failed: bool
) -> str:
    """Why a wrong answer is wrong: the program failed; the right values in another shape
    (other rows or columns, not just another order); the program read other tables than
    the gold query (when there is one); or else its logic."""
    if failed:
        return "execution error"
    predicted_cells = {normalise_text(cell) for row in rows for cell in row}
    gold_cells = {normalise_text(cell) for row in gold for cell in row}
    same_shape = len(rows) == len(gold) and {len(r) for r in rows} == {len(r) for r in gold}
    if gold_cells and gold_cells <= predicted_cells and not same_shape:
        return "answer format"
    gold_tables = tables_of(example.gold_sql)
    wrote_code = bool(code.strip())  # a direct answer has no tables to link
    if (
        wrote_code
        and gold_tables
        and gold_tables != tables_named_in(code, gold_tables | tables_in_code(code))
    ):
        return "wrong schema linking"
    return "wrong logic"


def tables_of(sql: str | None) -> set[str]:
    """The tables a SQL query reads, lower case."""
    if not sql:
        return set()
    try:
        return {
            table.name.lower()
            for table in sqlglot.parse_one(sql, read="sqlite").find_all(exp.Table)
        }
    except ParseError:
        return set()


def tables_in_code(code: str) -> set[str]:
    """Tables a SQL program reads (for programs in SQL); empty for Python."""
    return tables_of(code) if re.match(r"\s*(select|with)\b", code, re.IGNORECASE) else set()


def tables_named_in(code: str, candidates: set[str]) -> set[str]:
    """Which of `candidates` (table or BOX names) the program mentions as words."""
    words = {word.lower() for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code)}
    return {candidate for candidate in candidates if candidate in words}


def _rounded(value: Any) -> Any:
    return round(value, SPARQL_DECIMALS) if isinstance(value, float) else value
