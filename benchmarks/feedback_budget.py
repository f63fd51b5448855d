"""Execution feedback on adversarial data: its time and length against the
program it explains.

Three workspaces: 20 text columns of 50,000 distinct values (20 mistyped
literals to match), 1,500 columns with 300-character names, and cells of
100,000 characters. For each, the failing program runs through the executor
(the baseline, measured in the same run), then `judge` explains it with its
default budget and with no time limit. Printed: seconds, ratios to the
program's run, and the feedback's length against its max_chars.

Run: python benchmarks/feedback_budget.py
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from agent.feedback import judge  # noqa: E402
from agent.feedback_budget import FeedbackLimits  # noqa: E402
from agent.state import Attempt, CodeFailure  # noqa: E402
from plugins import Workspace, load_source  # noqa: E402
from plugins.executor import execute  # noqa: E402
from plugins.pandas_box import workspace_boxes  # noqa: E402

ROWS = 50_000


def build(folder: Path) -> dict[str, tuple[Path, str]]:
    """The three databases and a failing (or empty) program on each."""
    many_values = folder / "many_values.sqlite"
    with sqlite3.connect(many_values) as connection:
        columns = [f"c{i}" for i in range(20)]
        connection.execute(f"CREATE TABLE big ({', '.join(f'{c} TEXT' for c in columns)})")
        connection.executemany(
            f"INSERT INTO big VALUES ({', '.join('?' for _ in columns)})",
            ([f"value {i} {row}" for i in range(20)] for row in range(ROWS)),
        )
    literals = " & ".join(f"(big['c{i}'] == 'valeu {i} 7')" for i in range(20))
    wide = folder / "wide.sqlite"
    names = [f"measurement_{i}_" + "q" * 300 for i in range(1_500)]
    with sqlite3.connect(wide) as connection:
        connection.execute(f"CREATE TABLE wide ({', '.join(f'{n} REAL' for n in names)})")
    huge = folder / "huge.sqlite"
    with sqlite3.connect(huge) as connection:
        connection.execute("CREATE TABLE notes (note TEXT, body TEXT)")
        connection.executemany(
            "INSERT INTO notes VALUES (?, ?)", [(f"n{i}", "x" * 100_000) for i in range(8)]
        )
    return {
        "20 literals x 20 columns x 50,000 values": (many_values, f"result = big[{literals}]"),
        "1,500 columns of 300-character names": (wide, "result = Wide"),
        "8 cells of 100,000 characters": (huge, "result = notes['bodi']"),
    }


def attempt_of(code: str, workspace: Workspace) -> Attempt:
    """The attempt as the agent sees it after the executor ran `code`."""
    outcome = execute(code, workspace, "pandas", timeout_seconds=30)
    if outcome.error is not None:
        error = CodeFailure(type=outcome.error.type, message=outcome.error.message)
        return Attempt(code=code, executed=True, error=error)
    return Attempt(code=code, executed=True, result=outcome.result or [], columns=[])


def main() -> None:
    """Print, per workspace, program and feedback seconds, ratios and lengths."""
    limits = FeedbackLimits()
    unbounded = FeedbackLimits(seconds=float("inf"), max_chars=10**9)
    with tempfile.TemporaryDirectory() as folder:
        for label, (path, code) in build(Path(folder)).items():
            workspace = Workspace.of([load_source(str(path))])
            boxes = workspace_boxes(workspace)
            started = time.perf_counter()
            attempt = attempt_of(code, workspace)
            program = time.perf_counter() - started
            timings = {}
            for name, bound in (("budget", limits), ("no limit", unbounded)):
                started = time.perf_counter()
                verdict = judge(attempt, "?", boxes, [], limits=bound)
                timings[name] = (time.perf_counter() - started, len(verdict.feedback or ""))
            print(label)
            print(f"  program through the executor  {program:8.2f} s (baseline)")
            for name, (seconds, length) in timings.items():
                print(
                    f"  feedback, {name:<9}           {seconds:8.2f} s  "
                    f"ratio {seconds / program:6.2f}x  {length:>9,} characters"
                )
            print(f"  max_chars {limits.max_chars:,}, time budget {limits.seconds:g} s")


if __name__ == "__main__":
    main()
