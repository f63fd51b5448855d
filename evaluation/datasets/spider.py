"""Spider (Yu et al., 2018): text-to-SQL over SQLite databases.

Get it from https://yale-lily.github.io/spider (CC BY-SA 4.0). A Spider
directory holds `tables.json` (schemas), `dev.json` / `train_spider.json`
(questions: `db_id`, `question`, `query`) and `database/<db_id>/<db_id>.sqlite`.
Questions whose database file is missing are skipped and counted.
"""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

SPLIT_FILES = {"dev": "dev.json", "train": "train_spider.json", "test": "test.json"}


def read_spider(directory: Path, split: str = "dev") -> list[Example]:
    """The questions of one split whose database is present, in file order."""
    questions_file = directory / SPLIT_FILES.get(split, split)
    if not questions_file.is_file():
        raise BadInputError(f"{questions_file}: no such file (is {directory} a Spider directory?)")
    try:
        items = json.loads(questions_file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise BadInputError(f"{questions_file}: not valid JSON ({error})") from None
    examples = []
    for position, item in enumerate(items):
        database = spider_database(directory, item["db_id"])
        if not database.is_file():
            continue
        examples.append(
            Example(
                id=f"{split}-{position}",
                task="spider",
                question=item["question"],
                sources=[str(database)],
                database=item["db_id"],
                gold_sql=item["query"],
            )
        )
    return examples


def spider_database(directory: Path, db_id: str) -> Path:
    """The SQLite file of database `db_id`."""
    return directory / "database" / db_id / f"{db_id}.sqlite"
