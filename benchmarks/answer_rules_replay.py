"""The rules that turn a program's rows into the answer, replayed on the
answers a finished evaluation run recorded: no model call.

Each recorded SQL answer whose program still gives the recorded answer is
run again in the sandbox on the question's own database and read by the
working tree's rules: `LIMIT 1` under a question asking for "year(s)" keeps
every tied row (`agent.repair.sql_ties`, kept only when it runs to rows
holding the first, as the repair node does), and a yes/no question answered
with a truth value or with a count of what it asks exists (`agent.yes_no`).
The answer is scored by the task's metric against the recorded gold rows,
before (as recorded) and after.
Only the answer the vote chose is replayed: a rule that changes other
candidates' results could change the vote too, which this does not show.

Printed: each answer the rules change, then how many answers were replayed
and how many of them were right before and after.

Run: python benchmarks/answer_rules_replay.py RESULTS_JSONL TASK DATASET [--config NAME]
(e.g. docs/evaluation_runs/temptabqa-seed7-repairs/results.jsonl temptabqa
/work/shared/datasets/temptabqa_c)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from recorded_runs import recorded_sql_answers, replay_parser  # noqa: E402

from agent.repair.sql_ties import keep_ties  # noqa: E402
from agent.yes_no import as_yes_or_no  # noqa: E402
from evaluation.scoring import score_answer  # noqa: E402
from plugins.executor import execute  # noqa: E402


def answer_now(question: str, code: str, workspace: Any) -> tuple[list[list[Any]], Any] | None:
    """The program's rows as run today and the answer the working tree's
    rules read from them; None when the program fails."""
    run = execute(code, workspace, "sql")
    if run.error is not None or run.result is None:
        return None
    rows, columns = run.result, list(run.columns or [])
    ties = keep_ties(code, question, "sqlite")
    if ties is not None and rows:
        widened = execute(ties.code, workspace, "sql")
        if widened.error is None and rows[0] in (widened.result or []):
            rows, columns = widened.result or [], list(widened.columns or [])
    return run.result, as_yes_or_no(question, columns, rows) or rows


def main() -> None:
    """Replay the rules on the run's recorded SQL answers and print the tally."""
    parser = replay_parser(__doc__.split("\n\n")[0])
    arguments = parser.parse_args()
    replayed = right_before = right_after = not_replayed = 0
    for recorded, example, workspace in recorded_sql_answers(arguments):
        outcome = answer_now(recorded["question"], recorded["code"] or "", workspace)
        predicted = recorded["predicted"]
        if outcome is None or predicted not in (outcome[0], outcome[1]):
            not_replayed += 1
            continue
        answer = outcome[1]
        correct = score_answer(example, answer, recorded["gold"]).correct
        replayed += 1
        right_before += bool(recorded["correct"])
        right_after += correct
        if answer != predicted:
            verdict = "right" if correct else "wrong"
            print(f"{recorded['id']}: {recorded['question']}")
            print(f"  recorded {predicted} ({'right' if recorded['correct'] else 'wrong'})")
            print(f"  now      {answer} ({verdict}); gold {recorded['gold']}")
    print(f"answers replayed: {replayed} (not replayed: {not_replayed}, the program no longer")
    print("  gives the recorded answer, or the answer was a reading)")
    print(f"  right as recorded: {right_before}; with the working tree's rules: {right_after}")


if __name__ == "__main__":
    main()
