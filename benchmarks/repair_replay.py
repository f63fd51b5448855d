"""The SQL repair of two code versions, replayed on the programs a finished
evaluation run recorded: no model call. Every recorded SQL program that
fails with `no such column` is repaired (up to three names, as the agent
does) by the repair at BASE (the baseline, loaded from git) and by the
working tree's, run in the sandbox on the question's own database, and
scored by the task's metric against the recorded gold rows.

Printed: each program the two repairs treat differently, then how many
programs failed on a column, and for each version how many of them ran
after repair and how many returned the gold answer.

Run: python benchmarks/repair_replay.py RESULTS_JSONL TASK DATASET [--base REV] [--config NAME]
(e.g. docs/evaluation_runs/spider-dev-seed7-candidates/results.jsonl spider
/work/shared/datasets/spider --base 68e39dc)
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from recorded_runs import recorded_sql_answers, replay_parser  # noqa: E402

from agent.repair import sql as working_repair  # noqa: E402
from evaluation.scoring import score_answer  # noqa: E402
from plugins import Box, Workspace, get_registry  # noqa: E402
from plugins.executor import execute  # noqa: E402

MAX_REPAIRS = 3


def repair_at(revision: str) -> ModuleType:
    """`agent/repair/sql.py` as committed at `revision`, loaded as a module."""
    source = subprocess.run(
        ["git", "-C", str(REPOSITORY), "show", f"{revision}:agent/repair/sql.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "repair_at_base.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("repair_at_base", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def repaired_run(
    repair: ModuleType, code: str, workspace: Workspace, boxes: list[Box]
) -> tuple[str, list[list[Any]] | None]:
    """The program after up to MAX_REPAIRS repairs, and its rows (None when it still fails)."""
    for _ in range(MAX_REPAIRS + 1):
        run = execute(code, workspace, "sql")
        if run.error is None:
            return code, run.result
        fixed = repair.repair_sql(code, run.error.message, boxes, "sqlite")
        if fixed is None or fixed.code == code:
            return code, None
        code = fixed.code
    return code, None


def main() -> None:
    """Replay both repairs on the run's failing programs and print the tally."""
    parser = replay_parser(
        __doc__.split("\n\n")[0], config_help="configuration whose programs to replay"
    )
    parser.add_argument("--base", default="HEAD", help="revision of the baseline repair")
    arguments = parser.parse_args()
    versions = {arguments.base: repair_at(arguments.base), "working tree": working_repair}
    failing = 0
    ran = dict.fromkeys(versions, 0)
    right = dict.fromkeys(versions, 0)
    for recorded, example, workspace in recorded_sql_answers(arguments):
        boxes = get_registry().representation("sql").vocabulary(workspace).boxes
        for step in recorded["steps"]:
            first = execute(step["code"] or "", workspace, "sql")
            if first.error is None or "no such column" not in first.error.message:
                continue
            failing += 1
            outcomes = {}
            for name, repair in versions.items():
                code, rows = repaired_run(repair, step["code"], workspace, boxes)
                correct = rows is not None and score_answer(example, rows, recorded["gold"]).correct
                ran[name] += rows is not None
                right[name] += correct
                verdict = "right" if correct else "wrong" if rows is not None else "fails"
                outcomes[name] = (code, verdict)
            if len({code for code, _ in outcomes.values()}) > 1:
                print(f"{recorded['id']}: {recorded['question']}")
                print(f"  written:      {' '.join(step['code'].split())}")
                for name, (code, verdict) in outcomes.items():
                    print(f"  {name:13} {' '.join(code.split())}  -> {verdict}")
    print(f"programs failing on a column: {failing}")
    for name in versions:
        print(f"  repair at {name}: {ran[name]} ran, {right[name]} right")


if __name__ == "__main__":
    main()
