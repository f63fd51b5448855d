"""Which version of Pandora answered: recorded with every evaluation result,
so that a run resumed across commits says which answers came from which code."""

from __future__ import annotations

import subprocess
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
CODE_FOLDERS = ("agent", "plugins", "memory", "evaluation", "cli", "mcp_server")
"""What decides an answer; evaluation outputs kept in the checkout (docs/) do not."""


@cache
def code_version() -> str:
    """The short commit of the checkout Pandora runs from, with `+changes` when
    its code differs from that commit; the installed package's version when it
    is no git checkout."""
    try:
        commit = _git("rev-parse", "--short", "HEAD")
        changed = _git("status", "--porcelain", "--untracked-files=no", "--", *CODE_FOLDERS)
    except (OSError, subprocess.CalledProcessError):
        try:
            return f"pandora-skr {version('pandora-skr')}"
        except PackageNotFoundError:
            return "unknown"
    return commit + ("+changes" if changed else "")


def _git(*arguments: str) -> str:
    completed = subprocess.run(
        ["git", "-C", str(PROJECT_ROOT), *arguments],
        capture_output=True,
        text=True,
        check=True,
        timeout=10,
    )
    return completed.stdout.strip()
