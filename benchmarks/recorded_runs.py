"""The command line shared by the scripts that replay a finished evaluation
run's records (`key_join_replay.py`, `repair_replay.py`, `vote_replay.py`):
the run's results.jsonl, its task and dataset, and the configuration whose
records are replayed."""

from __future__ import annotations

import argparse
from pathlib import Path


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
