"""`Example`: one benchmark question, whatever its format, as the runner needs it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue

Task = Literal["spider", "wikitq", "wikisql", "spider4sparql", "webqsp", "grailqa", "temptabqa"]
TASKS: tuple[str, ...] = (
    "spider",
    "wikitq",
    "wikisql",
    "spider4sparql",
    "webqsp",
    "grailqa",
    "temptabqa",
)


class Example(BaseModel):
    """One question of a benchmark, with its sources and gold answer.

    `database` groups questions over the same data (Spider's db_id, a
    WikiTableQuestions table, a KG name): `--by-database` splits on it.
    `gold_answer` holds rows of JSON values; where a benchmark gives a gold
    query instead (`gold_sql`), the runner computes the rows by executing it.
    """

    id: str
    task: Task
    question: str
    sources: list[str]
    database: str
    gold_sql: str | None = None
    gold_query: str | None = Field(default=None, description="gold SPARQL or logical form")
    gold_answer: list[list[JsonValue]] | None = None
    entities: list[str] = Field(default_factory=list)
    variant: str | None = Field(default=None, description="TempTabQA-C: original/counterfactual")
    metadata: dict[str, JsonValue] = Field(default_factory=dict)
