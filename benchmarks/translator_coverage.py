"""SQL-to-pandas translator coverage on a Spider-format directory.

For every question of the split whose database is present: translate the
gold SQL to pandas, run both through the executor on the same database, and
compare the rows (order only with a top-level ORDER BY). Prints the share
translated, the share whose pandas result equals SQLite's, the constructs
that were not translated, and pandas' execution time against SQLite's for
the queries both ran (executor-measured, same run).

Run: python benchmarks/translator_coverage.py ../shared/datasets/spider [--limit N] [--failures F]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
from collections import Counter
from pathlib import Path

from evaluation.datasets.spider import read_spider
from plugins import Workspace, load_source
from plugins.pandas_box import workspace_boxes
from plugins.pandas_box.sql_to_pandas import UntranslatableSql, translate_sql, verify_translation


def main() -> None:
    """Measure and print the coverage figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--failures", type=int, default=0, help="show N mismatches")
    parser.add_argument("--database", default=None, help="only this db_id")
    arguments = parser.parse_args()
    examples = read_spider(arguments.directory, arguments.split)
    if arguments.database:
        examples = [e for e in examples if e.database == arguments.database]
    examples = examples[: arguments.limit]
    untranslated: Counter[str] = Counter()
    mismatches = []
    equal = translated = 0
    sql_ms: list[float] = []
    pandas_ms: list[float] = []
    for _, group in itertools.groupby(examples, key=lambda example: example.sources[0]):
        group = list(group)
        workspace = Workspace.of([load_source(group[0].sources[0])])
        boxes = workspace_boxes(workspace)
        for example in group:
            try:
                translation = translate_sql(example.gold_sql or "", boxes)
            except UntranslatableSql as error:
                untranslated[error.construct] += 1
                continue
            translated += 1
            verification = verify_translation(example.gold_sql or "", translation, workspace)
            if verification.equal:
                equal += 1
                sql_ms.append(verification.sql_ms)
                pandas_ms.append(verification.pandas_ms)
            else:
                mismatches.append((example, translation, verification))
    total = len(examples)
    print(f"questions: {total}")
    print(f"translated: {translated} ({translated / total:.1%})")
    print(f"equal to SQLite: {equal} ({equal / total:.1%})")
    print(f"translated but different or failing: {len(mismatches)}")
    for construct, count in untranslated.most_common():
        print(f"  not translated: {construct}: {count}")
    if sql_ms:
        print(
            f"execution time over {len(sql_ms)} equal queries: SQLite median "
            f"{statistics.median(sql_ms):.2f} ms, total {sum(sql_ms):.0f} ms; pandas median "
            f"{statistics.median(pandas_ms):.2f} ms, total {sum(pandas_ms):.0f} ms; "
            f"pandas/SQLite total time ratio {sum(pandas_ms) / sum(sql_ms):.2f}"
        )
    for example, translation, verification in mismatches[: arguments.failures]:
        print(f"\n--- {example.id} {example.database}: {example.gold_sql}")
        print(translation.code)
        print("sql:", verification.sql_error or (verification.sql_rows or [])[:5])
        print("pandas:", verification.pandas_error or (verification.pandas_rows or [])[:5])


if __name__ == "__main__":
    main()
