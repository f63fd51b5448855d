"""WikiSQL (Zhong et al., 2017): single-table questions with a logical form.

Get it from https://github.com/salesforce/WikiSQL (BSD-3-Clause). A split
is `<split>.jsonl` (one question a line: `table_id`, `question`, `sql` with
`sel`, `agg`, `conds` as [column, operator, value]) and `<split>.tables.jsonl`
(`id`, `header`, `types`, `rows`). Each table is written once as a CSV file
under `cache` (the agent reads tables from files); the gold answer is the
logical form executed as WikiSQL's own evaluation does (text compared
case-insensitively).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

AGGREGATES = ["", "MAX", "MIN", "COUNT", "SUM", "AVG"]
OPERATORS = ["=", ">", "<", "OP"]


def read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The objects of a JSON-lines file."""
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise BadInputError(f"{path}:{number}: not valid JSON ({error})") from None


def read_wikisql(directory: Path, split: str = "dev", cache: Path | None = None) -> list[Example]:
    """The questions of a split, each with its table as a CSV file and its gold answer."""
    tables = {table["id"]: table for table in read_jsonl(directory / f"{split}.tables.jsonl")}
    table_directory = cache or directory / f"{split}_tables"
    table_directory.mkdir(parents=True, exist_ok=True)
    examples = []
    for position, item in enumerate(read_jsonl(directory / f"{split}.jsonl")):
        table = tables.get(item["table_id"])
        if table is None:
            continue
        examples.append(
            Example(
                id=f"{split}-{position}",
                task="wikisql",
                question=item["question"],
                sources=[str(write_table(table, table_directory))],
                database=item["table_id"],
                gold_query=json.dumps(item["sql"]),
                gold_answer=[[value] for value in execute_logical_form(item["sql"], table)],
            )
        )
    return examples


def write_table(table: dict[str, Any], directory: Path) -> Path:
    """The table as `<directory>/<id>.csv` (written once)."""
    path = directory / f"{table['id'].replace('/', '_')}.csv"
    if not path.exists():
        temporary = path.with_suffix(".csv.partial")
        with open(temporary, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(table["header"])
            writer.writerows(table["rows"])
        temporary.replace(path)
    return path


def execute_logical_form(sql: dict[str, Any], table: dict[str, Any]) -> list[Any]:
    """The answer of a WikiSQL logical form over `table`'s rows."""
    rows = [row for row in table["rows"] if all(_holds(row, cond, table) for cond in sql["conds"])]
    values = [row[sql["sel"]] for row in rows]
    aggregate = AGGREGATES[sql["agg"]]
    if aggregate == "":
        return values
    if aggregate == "COUNT":
        return [len(values)]
    numbers = [number for number in (_number(value) for value in values) if number is not None]
    if not numbers:
        return []
    if aggregate == "MAX":
        return [max(numbers)]
    if aggregate == "MIN":
        return [min(numbers)]
    if aggregate == "SUM":
        return [sum(numbers)]
    return [sum(numbers) / len(numbers)]


def _holds(row: list[Any], condition: list[Any], table: dict[str, Any]) -> bool:
    column, operator, wanted = condition
    value = row[column]
    if OPERATORS[operator] == "=":
        if table["types"][column] == "real" and _number(wanted) is not None:
            return _number(value) == _number(wanted)
        return str(value).strip().lower() == str(wanted).strip().lower()
    left, right = _number(value), _number(wanted)
    if left is None or right is None:
        return False
    return left > right if OPERATORS[operator] == ">" else left < right


def _number(value: Any) -> float | None:
    try:
        return float(str(value).replace(",", ""))
    except ValueError:
        return None
