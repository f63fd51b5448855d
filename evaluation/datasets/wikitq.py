"""WikiTableQuestions (Pasupat & Liang, 2015): questions over one Wikipedia table each.

Get it from https://github.com/ppasupat/WikiTableQuestions (CC BY-SA 4.0).
Questions are TSV files under `data/` with the fields `id`, `utterance`,
`context` (the table's path, `csv/203-csv/402.csv`, relative to the dataset
root) and `targetValue` (the answer; several values are separated by `|`).
The tagged copy (`tagged/data/<split>.tagged` or `tagged/<split>.tagged`)
gives each answer's canonical form (`targetCanon`), which the official
evaluator compares with when present. TSV fields escape a newline as `\\n`,
a backslash as `\\\\` and a pipe as `\\p`.
"""

from __future__ import annotations

import csv
from pathlib import Path

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

ESCAPES = {"n": "\n", "\\": "\\", "p": "|"}


def unescape(text: str) -> str:
    """A WikiTableQuestions TSV field with its escapes undone (`\\p` -> `|`)."""
    result: list[str] = []
    characters = iter(text)
    for character in characters:
        if character != "\\":
            result.append(character)
            continue
        following = next(characters, "")
        result.append(ESCAPES.get(following, "\\" + following))
    return "".join(result)


def split_target(text: str) -> list[str]:
    """The answer values of a `targetValue` field: split on `|`, then unescaped."""
    return [unescape(value) for value in text.split("|")]


def read_wikitq(directory: Path, split: str = "pristine-unseen-tables") -> list[Example]:
    """The questions of `data/<split>.tsv` whose table file is present."""
    questions_file = directory / "data" / f"{split}.tsv"
    if not questions_file.is_file():
        raise BadInputError(f"{questions_file}: no such file (is {directory} WikiTableQuestions?)")
    canonical = read_canonical_targets(directory, split)
    examples = []
    with open(questions_file, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            table = directory / row["context"]
            if not table.is_file():
                continue
            examples.append(
                Example(
                    id=row["id"],
                    task="wikitq",
                    question=unescape(row["utterance"]),
                    sources=[str(table)],
                    database=row["context"],
                    gold_answer=[[value] for value in split_target(row["targetValue"])],
                    metadata={"canonical": canonical.get(row["id"])},
                )
            )
    return examples


def read_canonical_targets(directory: Path, split: str) -> dict[str, list[str]]:
    """Question id -> canonical answer values, from the tagged file when there is one."""
    for tagged in (
        directory / "tagged" / "data" / f"{split}.tagged",
        directory / "tagged" / f"{split}.tagged",
    ):
        if tagged.is_file():
            with open(tagged, encoding="utf-8", newline="") as handle:
                rows = csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
                return {row["id"]: split_target(row["targetCanon"]) for row in rows}
    return {}
