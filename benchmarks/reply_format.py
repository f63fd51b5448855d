"""What the reply format costs and gains on the local model: a sentence of
reasoning before the code (`fenced`) against the code alone (`code`).

For each of a seeded sample of Spider dev questions, the local model is
asked once greedily with the agent's own SQL prompt (instruction, schema
with example rows; no demonstrations) in each reply format. The program the
agent reads from each reply is run on the question's database (read-only)
and scored with the evaluation's Spider metric against the gold query's
rows. Printed: right programs, generated tokens and generation seconds
(llama.cpp's own timings) per format, their ratios (code alone against the
sentence, the baseline), and the questions only one format got right.

Run: python benchmarks/reply_format.py SPIDER_DIR [--questions N] [--seed S]
(the model file must be joined: `pandora model serve` once, or
PANDORA_MODEL_DIR; nothing else may run; the script starts its own server)
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from fenced_stop import ask, messages_for, program, sample  # noqa: E402
from parallel_samples import start  # noqa: E402

from agent.prompts import FENCED_REPLY_END, code_instruction  # noqa: E402
from evaluation.datasets.spider import read_spider, spider_database  # noqa: E402
from evaluation.scoring import score_answer  # noqa: E402
from plugins import Workspace, load_source  # noqa: E402

FORMATS = ("fenced", "code")
"""The baseline first."""


def rows_of(database: Path, sql: str | None) -> list[list[Any]] | None:
    """The rows `sql` gives on `database` opened read-only, None when it fails."""
    if not sql:
        return None
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return [list(row) for row in connection.execute(sql).fetchmany(10_000)]
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def in_format(
    messages: list[dict[str, str]], database: Path, reply_format: str
) -> list[dict[str, str]]:
    """`messages` (the agent's `fenced` prompt) with the instruction of `reply_format`."""
    workspace = Workspace.of([load_source(str(database))])
    fenced = code_instruction("sql", workspace, "fenced")
    wanted = code_instruction("sql", workspace, reply_format)  # type: ignore[arg-type]
    return [
        {**message, "content": message["content"].replace(fenced, wanted)} for message in messages
    ]


def main() -> None:
    """Ask every sampled question in each format; print the totals side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spider", type=Path)
    parser.add_argument("--questions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    arguments = parser.parse_args()
    examples = {(e.database, e.question): e for e in read_spider(arguments.spider)}
    items = sample(arguments.spider, arguments.questions, arguments.seed)
    server, url = start(1)
    totals = {name: {"right": 0, "tokens": 0, "seconds": 0.0} for name in FORMATS}
    only: dict[str, list[str]] = {name: [] for name in FORMATS}
    try:
        for item in items:
            example = examples[(item["db_id"], item["question"])]
            database = spider_database(arguments.spider, item["db_id"])
            gold = rows_of(database, example.gold_sql) or []
            right = {}
            for name in FORMATS:
                messages = in_format(messages_for(arguments.spider, item), database, name)
                reply = ask(url, messages, [FENCED_REPLY_END])
                rows = rows_of(database, program(reply))
                right[name] = rows is not None and score_answer(example, rows, gold).correct
                totals[name]["right"] += right[name]
                totals[name]["tokens"] += reply["timings"]["predicted_n"]
                totals[name]["seconds"] += reply["timings"]["predicted_ms"] / 1000
            for name in FORMATS:
                if right[name] and not any(right[other] for other in FORMATS if other != name):
                    only[name].append(item["question"])
            so_far = " ".join(
                f"{n}: {totals[n]['right']} right, {totals[n]['tokens']} tokens" for n in FORMATS
            )
            print(f"{item['db_id']:28} so far {so_far}", file=sys.stderr)
    finally:
        del server
    print(f"questions: {len(items)} (Spider dev, seed {arguments.seed}), one greedy reply each")
    for name in FORMATS:
        total = totals[name]
        print(
            f"{name:7} right {total['right']:3}/{len(items)}  tokens {total['tokens']:6}  "
            f"seconds {total['seconds']:7.1f}  only this one right: {len(only[name])}"
        )
    baseline, tried = totals["fenced"], totals["code"]
    print(
        f"code / fenced: {tried['tokens'] / baseline['tokens']:.2f}x the tokens, "
        f"{tried['seconds'] / baseline['seconds']:.2f}x the generation time"
    )


if __name__ == "__main__":
    main()
