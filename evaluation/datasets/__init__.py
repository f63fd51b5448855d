"""Readers of public benchmark formats, all returning `Example`s.

`read_dataset(task, path)` picks the reader of a task. Nothing is
downloaded: each reader's docstring says where to get its data. Readers that
must turn data into files the agent can open (WikiSQL tables, KGQA
subgraphs, TempTabQA-C infoboxes) write them once under a cache folder,
`$PANDORA_HOME/datasets/<task>` by default.
"""

from __future__ import annotations

import os
from pathlib import Path

from evaluation.datasets.example import TASKS, Example, Task
from evaluation.datasets.kgqa import read_kgqa
from evaluation.datasets.spider import read_spider
from evaluation.datasets.spider4sparql import read_spider4sparql
from evaluation.datasets.temptabqa import VARIANT_FILES, read_temptabqa
from evaluation.datasets.wikisql import read_wikisql
from evaluation.datasets.wikitq import read_wikitq
from plugins.errors import BadInputError

__all__ = ["TASKS", "Example", "Task", "dataset_cache", "read_dataset"]


def dataset_cache(task: str) -> Path:
    """Where files derived from a dataset are kept: `$PANDORA_HOME/datasets/<task>`."""
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    return home / "datasets" / task


def read_dataset(task: Task, path: Path, split: str | None = None) -> list[Example]:
    """The examples of `task` read from `path` (a folder, or a JSON-lines file for
    WebQSP/GrailQA); `split` names a split where the format has several."""
    if not path.exists():
        raise BadInputError(f"{path}: no such file or directory")
    cache = dataset_cache(task)
    if task == "spider":
        return read_spider(path, split or "dev")
    if task == "wikitq":
        return read_wikitq(path, split or "pristine-unseen-tables")
    if task == "wikisql":
        return read_wikisql(path, split or "dev", cache / (split or "dev"))
    if task == "spider4sparql":
        return read_spider4sparql(path, reliable_only=split != "all")
    if task in ("webqsp", "grailqa"):
        if path.is_dir():
            raise BadInputError(f"{path}: name the JSON-lines file of {task} questions")
        return read_kgqa(path, task, cache / path.stem)
    if task == "temptabqa":
        if split is not None and split not in VARIANT_FILES:
            raise BadInputError(f"TempTabQA-C split must be one of {', '.join(VARIANT_FILES)}")
        variants = (split,) if split else tuple(VARIANT_FILES)
        return read_temptabqa(path, cache, variants)
    raise BadInputError(f"unknown task {task!r}; known: {', '.join(TASKS)}")
