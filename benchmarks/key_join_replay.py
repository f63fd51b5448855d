"""The key-join repair (`agent.repair.sql_key_joins`) replayed on the
programs a finished evaluation run recorded: no model call. Every recorded
SQL program of the configuration that runs to nothing (no rows, or a lone
0) is repaired as the agent now would, run in the sandbox on the question's
own sources (a KG's BOXes within the question's focus), and scored by the
task's metric against the recorded gold rows. The baseline is the run as
recorded: those programs gave nothing.

Printed: each repaired program and its verdict, then how many programs ran
to nothing, how many the repair changed, how many of those then gave rows
and how many the gold answer, and the questions answered wrong in the run
that have a repaired program giving the gold answer (an upper bound on the
questions gained: the vote is not replayed).

Run: python benchmarks/key_join_replay.py RESULTS_JSONL TASK DATASET [--config NAME]
(e.g. docs/evaluation_runs/spider4sparql-seed7-sql/results.jsonl spider4sparql
/work/shared/datasets/spider4sparql)
"""

from __future__ import annotations

import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from recorded_runs import recorded_sql_answers, replay_parser  # noqa: E402

from agent.context import AgentContext  # noqa: E402
from agent.planning import kg_focus, shown_vocabulary  # noqa: E402
from agent.repair.literals import matches_nothing  # noqa: E402
from agent.repair.sql_key_joins import repair_key_joins  # noqa: E402
from evaluation.scoring import score_answer  # noqa: E402
from plugins import get_registry  # noqa: E402
from plugins.executor import execute  # noqa: E402


def main() -> None:
    """Replay the repair on the run's programs that gave nothing; print the tally."""
    parser = replay_parser(__doc__.split("\n\n")[0])
    arguments = parser.parse_args()
    representation = get_registry().representation("sql")
    hops = AgentContext().hops
    empty = changed = gave_rows = right = 0
    gained: set[str] = set()
    for recorded, example, workspace in recorded_sql_answers(arguments):
        focus = kg_focus(workspace, example.question, example.entities, hops)
        boxes = shown_vocabulary(representation, workspace, focus, True).boxes
        for step in recorded["steps"]:
            first = execute(step["code"] or "", workspace, "sql", focus=focus)
            if first.error is not None or not matches_nothing(first.result):
                continue
            empty += 1
            repaired = repair_key_joins(step["code"], boxes, "sqlite")
            if repaired is None:
                continue
            changed += 1
            run = execute(repaired.code, workspace, "sql", focus=focus)
            rows = None if run.error is not None else run.result
            correct = rows is not None and score_answer(example, rows, recorded["gold"]).correct
            gave_rows += bool(rows)
            right += correct
            if correct and not recorded["correct"]:
                gained.add(recorded["id"])
            verdict = "right" if correct else "rows, wrong" if rows else "still nothing"
            print(f"{recorded['id']}: {' '.join(repaired.code.split())}  -> {verdict}")
    print(f"programs that ran to nothing: {empty}")
    print(f"  changed by the key-join repair: {changed}; then gave rows: {gave_rows}")
    print(f"  then gave the gold answer: {right}")
    print(f"questions answered wrong in the run with a repaired program right: {len(gained)}")


if __name__ == "__main__":
    main()
