"""The schema text joined views add to prompts: characters of the schema the
LLM sees (SQL and pandas, 3 example rows or values, as the local model gets
it) with the views off (the baseline, measured in the same run) and on.

Databases: one TempTabQA-C context, written as the evaluation writes it, and
every Spider database under DIRECTORY/spider/database. Printed: per database
with a view, and for the largest Spider database, the characters off, on
and the ratio; then how many Spider databases get a view at all.

Run: python benchmarks/joined_views_prompt.py [DATASETS]  (default /work/shared/datasets)
"""

from __future__ import annotations

import csv
import sys
import tempfile
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from agent.planning import prompt_schema  # noqa: E402
from evaluation.datasets.temptabqa import parse_infobox, write_database  # noqa: E402
from plugins import Workspace, load_source  # noqa: E402
from plugins.joined_views import database_joined_views  # noqa: E402

EXAMPLE_VALUES = 3
QUESTION = "How many medals of each type?"


def schema_characters(path: Path, representation: str, joined_views: bool) -> int:
    """Characters of the schema text the prompt shows for the database at `path`."""
    workspace = Workspace.of([load_source(str(path))])
    schema = prompt_schema(
        workspace, representation, None, QUESTION, 8, 4, EXAMPLE_VALUES, joined_views
    )
    return len(schema.shown_text)


def report(label: str, path: Path) -> None:
    """One line per representation: characters off, on, and on / off."""
    for representation in ("sql", "pandas"):
        off = schema_characters(path, representation, joined_views=False)
        on = schema_characters(path, representation, joined_views=True)
        print(f"{label:28} {representation:7} off {off:7,}  on {on:7,}  ratio {on / off:.2f}")


def temptabqa_database(datasets: Path, folder: Path) -> Path:
    """The database of the first TempTabQA-C question."""
    csv.field_size_limit(sys.maxsize)
    with open(datasets / "temptabqa_c" / "Original.tsv", encoding="utf-8", newline="") as handle:
        context = next(csv.DictReader(handle, delimiter="\t"))["Context"]
    return write_database(parse_infobox(context), folder / "temptabqa.sqlite")


def main() -> None:
    datasets = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/datasets")
    with tempfile.TemporaryDirectory() as folder:
        report("temptabqa-c (first context)", temptabqa_database(datasets, Path(folder)))
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
