"""Execution voting: candidates whose results are equal form a group, the
heaviest group answers.

Results are compared the way the evaluation compares answers: cells by
value (3 = 3.0 = "3", floats to six places), columns in any order, rows as
a multiset. A clean result weighs one, a doubtful one half: execution
guidance flagged it, it has no rows at all, or its shape contradicts the
question (`agent.result_shape`: "the 2 heaviest" answered with one row);
a candidate with an error has no vote. An empty result answers only when
at least two candidates agree on it. Ties go to the group whose earliest
voter comes first in the order of the model's prior: readings, then its
best route's greedy program, then samples (readings are asked after the
first program, but on small tables they are the better guess). A greedy
program that is `sure` (its first attempt ran to a clean result) may answer
alone when nothing outvotes it.

Readings (the model's answers read from the data, `agent.nodes.read`) vote
beside the programs, as in mixed self-consistency over textual and symbolic
reasoning (Liu et al., "Rethinking Tabular Data Understanding with Large
Language Models", 2024): a reading adds one vote to every program group
whose result holds its values in one column; readings that match no program
form groups of their own, one per set of values. A reading with no values
does not vote.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from agent.answer import Candidate
from agent.result_shape import contradicts
from plugins.pandas_box.sql_to_pandas.comparison import canonical_cell

FLAGGED_WEIGHT = 0.5
MIN_EMPTY_VOTES = 2


@dataclass(frozen=True)
class Tally:
    """The outcome of a vote: the answering candidate (None when no
    candidate has rows), how many candidates gave its result, their weight,
    the runner-up's weight, and how many candidates ran without error."""

    winner: Candidate | None
    votes: int
    weight: float
    runner_up_weight: float
    ran: int

    @property
    def agreement(self) -> float | None:
        """The share of the candidates that ran which gave the answer."""
        return self.votes / self.ran if self.ran else None


def result_key(rows: Sequence[Sequence[object]]) -> tuple[object, ...]:
    """A key equal for equal results (column and row order ignored)."""
    canonical = (tuple(sorted((canonical_cell(cell) for cell in row), key=repr)) for row in rows)
    return tuple(sorted(Counter(canonical).items(), key=repr))


def weight(candidate: Candidate, question: str) -> float:
    """The candidate's vote: 1, half when its result is doubtful (flagged,
    empty, or of a shape `question` contradicts), 0 when it did not run."""
    if candidate.error is not None or candidate.result is None:
        return 0.0
    return FLAGGED_WEIGHT if _doubtful(candidate, question) else 1.0


def sure(candidate: Candidate, question: str) -> bool:
    """Whether a greedy program may answer alone, before any sample is
    written: the LLM's first program ran (repairs allowed, no correction) to
    rows that execution guidance did not flag and whose shape `question`
    does not contradict. On Spider dev and Spider4SPARQL a second agreeing
    candidate changed almost no such answer (docs/evaluation.md, "Sure
    greedy programs")."""
    return (
        candidate.origin == "greedy"
        and candidate.attempts == 1
        and weight(candidate, question) == 1.0
    )


def _doubtful(candidate: Candidate, question: str) -> bool:
    rows = candidate.result or []
    return candidate.flagged or not rows or contradicts(question, candidate.columns, rows)


def supports(reading: Candidate, result: Candidate) -> bool:
    """Whether `result` holds exactly `reading`'s values in one of its
    columns, as sets (cells compared by value): a reading names the answer's
    values; a program may repeat one on several rows or add a column beside."""
    values = _value_set([row[0] for row in reading.result or [] if row])
    rows = result.result or []
    if not rows or not values:
        return False
    width = min(len(row) for row in rows)
    return any(_value_set([row[column] for row in rows]) == values for column in range(width))


def _value_set(cells: Sequence[object]) -> frozenset[object]:
    return frozenset(canonical_cell(cell) for cell in cells)


def tally(candidates: Sequence[Candidate], question: str) -> Tally:
    """The vote over `candidates` (in the order they were written) on
    `question`, whose explicit count or names a result's shape may contradict."""

    def weight_of(candidate: Candidate) -> float:
        return weight(candidate, question)

    readings = [c for c in candidates if c.origin == "reading" and reading_values(c)]
    groups: dict[tuple[object, ...], list[Candidate]] = {}
    for candidate in candidates:
        if candidate.origin != "reading" and weight_of(candidate) > 0:
            groups.setdefault(result_key(candidate.result or []), []).append(candidate)
    empty = result_key([])
    if len(groups.get(empty, [])) < MIN_EMPTY_VOTES:
        groups.pop(empty, None)
    witnessed = {id(r) for r in readings for g in groups.values() if supports(r, g[0])}
    for reading in readings:
        if id(reading) not in witnessed:
            groups.setdefault(("reading", reading_values(reading)), []).append(reading)
    programs_ran = sum(1 for c in candidates if c.origin != "reading" and weight_of(c) > 0)
    ran = programs_ran + len(readings)

    def witnesses(members: list[Candidate]) -> list[Candidate]:
        if members[0].origin == "reading":
            return []
        return [reading for reading in readings if supports(reading, members[0])]

    def group_weight(members: list[Candidate]) -> float:
        return sum(map(weight_of, members)) + len(witnesses(members))

    ranked = sorted(
        groups.values(),
        key=lambda members: (
            -group_weight(members),
            _first_position([*members, *witnesses(members)], candidates),
        ),
    )
    if not ranked:
        return Tally(winner=None, votes=0, weight=0.0, runner_up_weight=0.0, ran=ran)
    best = ranked[0]
    clean = [member for member in best if not _doubtful(member, question)]
    runner_up = group_weight(ranked[1]) if len(ranked) > 1 else 0.0
    return Tally(
        winner=(clean or best)[0],
        votes=len(best) + len(witnesses(best)),
        weight=group_weight(best),
        runner_up_weight=runner_up,
        ran=ran,
    )


def reading_values(reading: Candidate) -> frozenset[object]:
    """The set of values a reading names (cells by value); empty when it names none."""
    return _value_set([row[0] for row in reading.result or [] if row])


def _first_position(voters: list[Candidate], candidates: Sequence[Candidate]) -> int:
    """Where the earliest of a group's voters (members and witnessing
    readings) stands among `candidates` in the prior's order: readings
    first, then the programs as they were written."""
    prior = sorted(candidates, key=lambda candidate: candidate.origin != "reading")
    return min(index for index, c in enumerate(prior) if any(c is v for v in voters))
