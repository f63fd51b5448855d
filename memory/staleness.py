"""Noticing that a demonstration no longer does what it recorded.

Each demonstration records the answer its code returned and a fingerprint of
the schema it ran on. Rechecking re-runs every demonstration's code through
the executor on its sources: it is kept (with the schema as it is now) if it
still returns its stored answer, and flagged stale otherwise, whether or not
the schema changed (the data may have, or the code may behave differently
now). Without re-running, only a changed schema flags a demonstration stale.
Stale demonstrations are never retrieved nor used as cached programs; a later
recheck that finds them passing again restores them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory.fingerprints import schema_fingerprint
from memory.models import Demonstration
from memory.store import DemonstrationStore
from memory.verification import (
    demonstration_locations,
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
    on_progress: Callable[[int, int], None] | None = None,
) -> RecheckReport:
    """Re-run every demonstration on its sources now (see the module docstring).

    `only_sources` limits the check to demonstrations whose sources are all
    among those locations; `base_dir` resolves relative source paths (the
    seed's resolve against examples/). With `reverify` False nothing runs: a
    changed schema flags the demonstration stale. `on_progress(done, total)`
    is called after each record.
    """
    wanted = {resolve_location(s) for s in only_sources} if only_sources else None
    workspaces: dict[tuple[str, ...], Workspace | str] = {}
    report = RecheckReport()
    records = list(store.iter_all())
    for done, demonstration in enumerate(records, start=1):
        if on_progress:
            on_progress(done, len(records))
        if demonstration.negative or not demonstration.sources:
            continue
        locations = demonstration_locations(demonstration, base_dir)
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
    same_schema = fingerprint == demonstration.schema_fingerprint
    if reverify:
        passes = verify_code(
            demonstration.code,
            workspace,
            demonstration.representation,
            focus,
            expected=demonstration.answer,
        ).passed
    else:
        passes = same_schema
    if passes:
        if demonstration.stale:
            report.restored.append(demonstration.id)
        elif same_schema:
            report.unchanged.append(demonstration.id)
            return None
        else:
            report.reverified.append(demonstration.id)
        return demonstration.model_copy(
            update={"schema_": schema, "schema_fingerprint": fingerprint, "stale": False}
        )
    report.stale.append(demonstration.id)
    return None if demonstration.stale else demonstration.model_copy(update={"stale": True})
