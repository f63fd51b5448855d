"""Noticing that a source's schema changed under its demonstrations.

Each demonstration records a fingerprint of the schema it ran on. Rechecking
renders the schema of its sources again: when the fingerprint differs, the
demonstration is re-run through the executor and kept (with the new schema)
if it still returns its stored answer, or flagged stale otherwise. Stale
demonstrations are never retrieved nor used as cached programs; a later
recheck that finds the old schema again (or a passing re-run) restores them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memory.fingerprints import schema_fingerprint
from memory.models import Demonstration
from memory.seed import SEED_DATASET, examples_dir
from memory.store import DemonstrationStore
from memory.verification import (
    open_workspace,
    resolve_location,
    structure_schema,
    to_focus,
    verify_code,
)
from plugins import Workspace
from plugins.errors import PandoraError


@dataclass
class RecheckReport:
    """What a recheck found, by demonstration id."""

    unchanged: list[str] = field(default_factory=list)
    reverified: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    restored: list[str] = field(default_factory=list)
    unavailable: dict[str, str] = field(default_factory=dict)

    def summary(self) -> dict[str, object]:
        """Counts and the ids of the stale ones, for the CLI's JSON."""
        return {
            "unchanged": len(self.unchanged),
            "reverified": len(self.reverified),
            "restored": len(self.restored),
            "stale": self.stale,
            "unavailable": len(self.unavailable),
        }


def recheck_demonstrations(
    store: DemonstrationStore,
    *,
    only_sources: list[str] | None = None,
    base_dir: Path | None = None,
    reverify: bool = True,
) -> RecheckReport:
    """Compare every demonstration's schema fingerprint with its sources now.

    `only_sources` limits the check to demonstrations whose sources are all
    among those locations; `base_dir` resolves relative source paths (the
    seed's resolve against examples/). With `reverify` False a changed schema
    flags the demonstration stale without running anything.
    """
    wanted = {resolve_location(s) for s in only_sources} if only_sources else None
    workspaces: dict[tuple[str, ...], Workspace | str] = {}
    report = RecheckReport()
    for demonstration in list(store.iter_all()):
        if demonstration.negative or not demonstration.sources:
            continue
        folder = base_dir or (examples_dir() if demonstration.dataset == SEED_DATASET else None)
        locations = tuple(resolve_location(s, folder) for s in demonstration.sources)
        if wanted is not None and not set(locations) <= wanted:
            continue
        if locations not in workspaces:
            workspaces[locations] = _open(locations)
        workspace = workspaces[locations]
        if isinstance(workspace, str):
            report.unavailable[demonstration.id] = workspace
            continue
        updated = _recheck_one(demonstration, workspace, reverify, report)
        if updated is not None:
            store.update(updated)
    return report


def _open(locations: tuple[str, ...]) -> Workspace | str:
    try:
        return open_workspace(list(locations))
    except PandoraError as error:
        return str(error)


def _recheck_one(
    demonstration: Demonstration, workspace: Workspace, reverify: bool, report: RecheckReport
) -> Demonstration | None:
    focus = to_focus(demonstration.focus, demonstration.question)
    schema = structure_schema(workspace, demonstration.representation, focus)
    fingerprint = schema_fingerprint(schema)
    if fingerprint == demonstration.schema_fingerprint:
        if demonstration.stale:
            report.restored.append(demonstration.id)
            return demonstration.model_copy(update={"stale": False})
        report.unchanged.append(demonstration.id)
        return None
    if reverify:
        outcome = verify_code(
            demonstration.code,
            workspace,
            demonstration.representation,
            focus,
            expected=demonstration.answer,
        )
        if outcome.passed:
            report.reverified.append(demonstration.id)
            return demonstration.model_copy(
                update={"schema_": schema, "schema_fingerprint": fingerprint, "stale": False}
            )
    report.stale.append(demonstration.id)
    return None if demonstration.stale else demonstration.model_copy(update={"stale": True})
