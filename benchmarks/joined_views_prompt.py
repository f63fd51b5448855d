"""The schema text joined views add to prompts: characters of the schema the
LLM sees (SQL and pandas, with the example rows or values the local model
gets) with the views off (the baseline, measured in the same run), on (beside
their tables), and alone (`views_alone`: the views without their tables,
when they join every table and lose no row of them; SQL only).

Databases: TempTabQA-C contexts, written as the evaluation writes them
(the first one in detail, then the first TEMPTABQA_CONTEXTS distinct ones
summed), and every Spider database under DIRECTORY/spider/database.
Printed: per database with a view, and for the largest Spider database,
the characters off, on and alone and their ratios to off; for the
TempTabQA-C contexts, how many show the view alone and the characters of
all their SQL schemas on and alone; then how many Spider databases get a
view at all.

Run: python benchmarks/joined_views_prompt.py [DATASETS]  (default /work/shared/datasets)
"""

from __future__ import annotations

import csv
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from agent.model_defaults import LOCAL_MODEL_DEFAULTS  # noqa: E402
from agent.planning import prompt_schema  # noqa: E402
from evaluation.datasets.temptabqa import parse_infobox, write_database  # noqa: E402
from plugins import Workspace, load_source  # noqa: E402
from plugins.joined_views import database_joined_views  # noqa: E402

EXAMPLE_VALUES = LOCAL_MODEL_DEFAULTS.example_values
QUESTION = "How many medals of each type?"
TEMPTABQA_CONTEXTS = 100


def schema_characters(
    path: Path, representation: str, joined_views: bool, views_alone: bool = False
) -> int:
    """Characters of the schema text the prompt shows for the database at `path`."""
    workspace = Workspace.of([load_source(str(path))])
    schema = prompt_schema(
        workspace,
        representation,
        None,
        QUESTION,
        8,
        4,
        EXAMPLE_VALUES,
        joined_views,
        views_alone,
    )
    return len(schema.shown_text)


def report(label: str, path: Path) -> None:
    """One line per representation: characters off, on and alone, and their ratios to off."""
    for representation in ("sql", "pandas"):
        off = schema_characters(path, representation, joined_views=False)
        on = schema_characters(path, representation, joined_views=True)
        alone = schema_characters(path, representation, joined_views=True, views_alone=True)
        print(
            f"{label:28} {representation:7} off {off:7,}  on {on:7,} ({on / off:.2f})  "
            f"alone {alone:7,} ({alone / off:.2f})"
        )


def temptabqa_databases(datasets: Path, folder: Path, count: int) -> list[Path]:
    """The databases of the first `count` distinct TempTabQA-C contexts."""
    csv.field_size_limit(sys.maxsize)
    with open(datasets / "temptabqa_c" / "Original.tsv", encoding="utf-8", newline="") as handle:
        contexts = list(
            dict.fromkeys(row["Context"] for row in csv.DictReader(handle, delimiter="\t"))
        )
    return [
        write_database(parse_infobox(context), folder / f"temptabqa-{number}.sqlite")
        for number, context in enumerate(contexts[:count])
    ]


def temptabqa_summary(paths: list[Path]) -> None:
    """How many contexts show the view alone, and all their SQL schemas' characters."""
    on = [schema_characters(path, "sql", joined_views=True) for path in paths]
    alone = [schema_characters(path, "sql", True, views_alone=True) for path in paths]
    shown_alone = sum(a != o for a, o in zip(alone, on, strict=True))
    print(
        f"temptabqa-c, {len(paths)} contexts: {shown_alone} shown as the view alone; "
        f"sql characters on {sum(on):,}, alone {sum(alone):,} ({sum(alone) / sum(on):.2f})"
    )


def main() -> None:
    datasets = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/datasets")
    with tempfile.TemporaryDirectory() as folder:
        databases = temptabqa_databases(datasets, Path(folder), TEMPTABQA_CONTEXTS)
        report("temptabqa-c (first context)", databases[0])
        temptabqa_summary(databases)
    spider = sorted((datasets / "spider" / "database").glob("*/*.sqlite"))
    tables = {path: len(load_source(str(path)).handle.tables) for path in spider}
    with_views = [path for path in spider if database_joined_views(load_source(str(path)).handle)]
    for path in with_views:
        report(f"spider {path.stem} ({tables[path]} tables)", path)
    largest = max(spider, key=tables.__getitem__)
    report(f"spider {largest.stem} ({tables[largest]} tables)", largest)
    print(f"spider databases with a view: {len(with_views)} of {len(spider)}")


if __name__ == "__main__":
    main()
