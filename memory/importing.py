"""Importing demonstrations from a file without trusting what it claims.

A JSONL file can say anything: that a program is `gold`, that it ran on the
schema the user has, when it was made. None of that is taken from the file.
Each record's code is run again on its sources here, and only what that run
re-establishes is kept: a record whose code fails, returns nothing, or no
longer returns the answer the file gives is refused. What is kept is a new
demonstration with origin `import`, verified at most `executed` (the file
supplied both the code and the answer it matched), its kind, schema,
fingerprint and creation time measured here. Negative records (failed
attempts, never retrieved) are kept as `unverified` negatives without a run.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from memory.limits import size_problem
from memory.models import ORIGIN_TRUST, VERIFICATION_RANK, Demonstration
from memory.store import DemonstrationStore
from memory.verification import (
    demonstration_locations,
    demonstration_on_workspace,
    open_workspace,
    workspace_kind,
)
from plugins import Workspace
from plugins.errors import PandoraError

NumberedRecord = tuple[int, Demonstration]
"""A record read from a file and the line it was on."""


IMPORTED_RANK = (VERIFICATION_RANK["executed"], ORIGIN_TRUST["import"])
"""The best `keep_rank` an imported record can earn."""


def already_kept(records: Sequence[NumberedRecord], store: DemonstrationStore) -> set[str]:
    """Ids of records the store holds a copy of that an import could not
    replace: re-running them would change nothing."""
    stored = store.stored_keep_ranks(sorted({record.id for _, record in records}))
    return {record_id for record_id, rank in stored.items() if rank >= IMPORTED_RANK}


def reestablish_records(
    records: Sequence[NumberedRecord],
    base_dir: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[list[Demonstration], list[tuple[int, str]]]:
    """The demonstrations the records' re-runs establish, and (line, why) of
    the records refused. Relative sources resolve as `memory verify` resolves
    them (`demonstration_locations`); `on_progress(done, total)` follows each."""
    workspaces: dict[tuple[str, ...], Workspace | str] = {}
    kept: list[Demonstration] = []
    refused: list[tuple[int, str]] = []
    for done, (line, record) in enumerate(records, start=1):
        outcome = _reestablish(record, base_dir, workspaces)
        if isinstance(outcome, str):
            refused.append((line, outcome))
        else:
            kept.append(outcome)
        if on_progress:
            on_progress(done, len(records))
    return kept, refused


def _reestablish(
    record: Demonstration,
    base_dir: Path | None,
    workspaces: dict[tuple[str, ...], Workspace | str],
) -> Demonstration | str:
    """The demonstration re-established from `record`, or why it is refused."""
    problem = size_problem(record.question, record.reasoning, record.code, record.answer)
    if problem is not None:
        return problem
    if not record.sources:
        return "it names no source to run its code on"
    locations = demonstration_locations(record, base_dir)
    if locations not in workspaces:
        workspaces[locations] = _open(locations)
    workspace = workspaces[locations]
    if isinstance(workspace, str):
        return workspace
    if record.negative:
        return _negative(record, workspace)
    try:
        demonstration, outcome = demonstration_on_workspace(
            workspace,
            question=record.question,
            code=record.code,
            locations=record.sources,
            representation=record.representation,
            origin="import",
            reasoning=record.reasoning,
            focus=record.focus,
            expected=record.answer or None,
            dataset=record.dataset,
        )
    except PandoraError as error:
        return str(error)
    if not outcome.passed:
        return f"not re-established: {outcome.problem}"
    return demonstration


def _negative(record: Demonstration, workspace: Workspace) -> Demonstration:
    return Demonstration(
        question=record.question,
        kind=workspace_kind(workspace),
        representation=record.representation,
        reasoning=record.reasoning,
        code=record.code,
        dataset=record.dataset,
        origin="import",
        sources=record.sources,
        focus=record.focus,
        negative=True,
        error=record.error,
    )


def _open(locations: tuple[str, ...]) -> Workspace | str:
    try:
        return open_workspace(list(locations))
    except PandoraError as error:
        return f"its sources cannot be opened: {error}"
