"""The lockdown of a child, in order: resource limits, Landlock, seccomp.

A template prepares what is costly once (`prepare_lockdown`: the Landlock
ruleset, the compiled seccomp filter); each child applies it to itself
(`PreparedLockdown.apply`), irrevocably, before running its program. Each
layer that cannot be applied is recorded in the report with its reason: the
pool then warns loudly, and diagnostics show it; nothing fails silently.
"""

from __future__ import annotations

import os
import site
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field

import plugins
from plugins.executor.landlock import LandlockUnavailable, create_ruleset, enforce_ruleset
from plugins.executor.models import Limits
from plugins.executor.rlimits import apply_rlimits, open_descriptors
from plugins.executor.seccomp_filter import CompiledFilter

SYSTEM_READABLE = ("/usr/share/zoneinfo", "/etc/localtime", "/dev/null", "/dev/urandom")


class LockdownReport(BaseModel):
    """Which kernel layers a child applied to itself, and why any is missing."""

    seccomp: bool = False
    seccomp_rules: int = 0
    landlock_abi: int = 0
    rlimits: dict[str, int] = Field(default_factory=dict)
    problems: list[str] = Field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every layer is active."""
        return self.seccomp and self.landlock_abi > 0 and bool(self.rlimits)


@dataclass
class PreparedLockdown:
    """The layers built once in a template, ready for each child to apply."""

    ruleset: int | None = None
    landlock_abi: int = 0
    seccomp: CompiledFilter | None = None
    problems: list[str] = field(default_factory=list)

    def apply(self, limits: Limits, highest_descriptor: int) -> LockdownReport:
        """Lock this process down (call it in the child only) and report what held."""
        report = LockdownReport(problems=list(self.problems))
        try:
            report.rlimits = apply_rlimits(limits, highest_descriptor)
        except (OSError, ValueError) as error:
            report.problems.append(f"resource limits: {error}")
        if self.ruleset is not None:
            try:
                enforce_ruleset(self.ruleset)
                report.landlock_abi = self.landlock_abi
            except (LandlockUnavailable, OSError) as error:
                report.problems.append(f"landlock: {error}")
            os.close(self.ruleset)
        if self.seccomp is not None:
            try:
                report.seccomp_rules = self.seccomp.install()
                report.seccomp = True
            except OSError as error:
                report.problems.append(f"seccomp: {error}")
        return report


def prepare_lockdown(source_paths: Iterable[str]) -> PreparedLockdown:
    """Build the Landlock ruleset and the seccomp filter for children to apply."""
    prepared = PreparedLockdown()
    try:
        prepared.ruleset, prepared.landlock_abi = create_ruleset(readable_paths(source_paths))
    except (LandlockUnavailable, OSError) as error:
        prepared.problems.append(f"landlock: {error}")
    try:
        prepared.seccomp = CompiledFilter()
    except (OSError, RuntimeError, ValueError) as error:
        prepared.problems.append(f"seccomp: {error}")
    return prepared


def lock_down(limits: Limits, source_paths: Iterable[str]) -> LockdownReport:
    """Prepare and apply every layer to this process at once (irrevocably)."""
    prepared = prepare_lockdown(source_paths)
    return prepared.apply(limits, max(open_descriptors()))


def readable_paths(source_paths: Iterable[str]) -> list[str]:
    """What a locked-down child may still read: Python's standard library and
    installed packages (for lazy imports), Pandora's own `plugins` package, the
    sources' files and time-zone data. Not the caller's working directory,
    script directory or other import paths (where a `.env` may lie)."""
    installation = sysconfig.get_paths()
    paths = {installation["stdlib"], installation["platstdlib"], *SYSTEM_READABLE}
    paths.update(site.getsitepackages())
    paths.update(str(Path(package)) for package in plugins.__path__)
    paths.update(str(Path(p).resolve()) for p in source_paths if Path(p).exists())
    return sorted(paths)
