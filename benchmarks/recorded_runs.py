"""What the scripts that replay a finished evaluation run's records share
(`answer_rules_replay.py`, `key_join_replay.py`, `repair_replay.py`,
`vote_replay.py`): the command line (the run's results.jsonl, its task and
dataset, and the configuration whose records are replayed) and the walk
over its SQL records."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def replay_parser(
    description: str, config_help: str = "configuration to replay"
) -> argparse.ArgumentParser:
    """An argument parser holding `results`, `task`, `dataset` and `--config`;
    each script adds its own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("results", type=Path)
    parser.add_argument("task")
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--config", default="pandora", help=config_help)
    return parser


def recorded_sql_answers(
    arguments: argparse.Namespace,
) -> Iterator[tuple[dict[str, Any], Any, Any]]:
    """Each record of the run (`arguments` from `replay_parser`) of the chosen
    configuration whose representation is SQL, with its dataset example and
    the workspace of the example's sources (opened once for equal sources)."""
    from evaluation.agent_runs import WorkspaceCache, example_plugin
    from evaluation.datasets import read_dataset

    examples = {example.id: example for example in read_dataset(arguments.task, arguments.dataset)}
    workspaces = WorkspaceCache()
    for line in arguments.results.read_text().splitlines():
        recorded = json.loads(line)
        if recorded["configuration"] != arguments.config or recorded["representation"] != "sql":
            continue
        example = examples[recorded["id"]]
        yield recorded, example, workspaces.open(example.sources, example_plugin(example))
