"""What the vote adds, replayed on a finished evaluation run: no model call.

The `no-vote` configuration answers with one candidate, the first route's
greedy program and its corrections. That program's prompt does not depend
on the candidates after it and it is written at temperature 0, so a run of
the full method already holds it: the first greedy candidate recorded for each
question. This script scores that candidate's result with the task's metric
against the recorded gold rows and sets it beside the voted answer.

Cost is counted in LLM calls: the greedy candidate's are its first attempt
and, when that failed, its corrections (the steps before the first one that
ran), at most the run's attempts per candidate. Seconds are not split per
candidate in a run's record, so they are not replayed; an actual
`--config no-vote` run measures them.

In runs with readings (WikiTableQuestions at the local defaults) the
readings are written before the programs; the greedy program is the first
candidate of origin `greedy`, and its prompt does not depend on the
readings either. There the third rule below replays asking for readings
only when the greedy program is not sure: a sure one answers before any
reading is asked.

Printed: per question where the two differ, the question and which was
right; then accuracy, paired counts and calls per question for both, and
for a third rule: the vote goes on only when the greedy candidate is not
sure (its first attempt failed, or ran to nothing or to a shape the question
contradicts); otherwise its answer stands after one call. Where it goes on,
the recorded run is that rule's run, so this too is exact but for seconds.

Run: python benchmarks/vote_replay.py RESULTS_JSONL TASK DATASET [--config NAME] [--attempts L]
(e.g. docs/evaluation_runs/spider-dev-seed7-code-only/results.jsonl spider
/work/shared/datasets/spider)
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from recorded_runs import replay_parser  # noqa: E402

from agent.answer import Candidate  # noqa: E402
from agent.voting import sure  # noqa: E402
from evaluation.datasets import read_dataset  # noqa: E402
from evaluation.metrics import sign_test  # noqa: E402
from evaluation.scoring import score_answer  # noqa: E402


def greedy_calls(steps: list[dict], attempts: int) -> int:
    """LLM calls of the first candidate: its steps up to the first that ran
    without feedback, at most `attempts`."""
    calls = 0
    for step in steps[:attempts]:
        calls += 1
        if step["feedback"] is None:
            break
    return max(calls, 1)


def recorded_sure(first: dict, steps: list[dict], question: str, attempts: int) -> bool:
    """Whether the recorded greedy candidate is sure by the agent's own rule
    (`agent.voting.sure`). Column names are not recorded, so the
    names-asked-ids-given check sees none."""
    candidate = Candidate(
        representation=first["representation"],
        origin="greedy",
        result=first["result"] if first["error"] is None else None,
        flagged=steps[0]["feedback"] is not None,
        attempts=greedy_calls(steps, attempts),
    )
    return sure(candidate, question)


def main() -> None:
    """Score each question's greedy candidate beside its voted answer; print the tally."""
    parser = replay_parser(__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=2, help="attempts per candidate (L)")
    arguments = parser.parse_args()
    examples = {example.id: example for example in read_dataset(arguments.task, arguments.dataset)}
    voted_right = greedy_right = only_voted = only_greedy = questions = 0
    sure_right = sure_questions = 0
    voted_calls: list[int] = []
    greedy_call_counts: list[int] = []
    sure_calls: list[int] = []
    for line in arguments.results.read_text().splitlines():
        recorded = json.loads(line)
        if recorded["configuration"] != arguments.config or not recorded.get("candidates"):
            continue
        first = next(
            (c for c in recorded["candidates"] if c["origin"] in ("greedy", "cache")), None
        )
        if first is None:
            continue
        questions += 1
        example = examples[recorded["id"]]
        rows = first["result"]
        greedy = rows is not None and score_answer(example, rows, recorded["gold"]).correct
        voted = bool(recorded["correct"])
        voted_right += voted
        greedy_right += greedy
        only_voted += voted and not greedy
        only_greedy += greedy and not voted
        voted_calls.append(recorded["llm_calls"])
        greedy_call_counts.append(greedy_calls(recorded["steps"], arguments.attempts))
        stops = recorded_sure(first, recorded["steps"], recorded["question"], arguments.attempts)
        sure_questions += stops
        sure_right += greedy if stops else voted
        sure_calls.append(1 if stops else recorded["llm_calls"])
        if voted != greedy:
            winner = "vote" if voted else "greedy"
            print(f"{recorded['id']}: only the {winner} right: {recorded['question']}")
    if not questions:
        sys.exit(f"error: no question of configuration {arguments.config!r} has candidates")
    print(f"\n{questions} questions ({arguments.config}, {arguments.results})")
    print(tally_line("voted answer", voted_right, voted_calls))
    print(tally_line("greedy candidate", greedy_right, greedy_call_counts))
    print(tally_line("vote unless the greedy candidate is sure", sure_right, sure_calls))
    print(f"  ({sure_questions} questions stopped at a sure greedy candidate)")
    print(
        f"only the vote right {only_voted}, only the greedy candidate right {only_greedy}, "
        f"sign test p = {sign_test(only_voted, only_greedy):.3f}"
    )


def tally_line(label: str, right: int, calls: list[int]) -> str:
    """One rule's right answers and LLM calls per question."""
    return (
        f"{label}: {right} right, {statistics.mean(calls):.2f} calls/q "
        f"(median {statistics.median(calls)})"
    )


if __name__ == "__main__":
    main()
