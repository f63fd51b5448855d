"""A worker's lockdown, in order: resource limits, Landlock, seccomp.

Each layer that cannot be applied is recorded in the report with its reason:
the pool then warns loudly, and diagnostics show it; nothing fails silently.
"""

from __future__ import annotations

import site
import sys
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, Field

from plugins.executor.landlock import LandlockUnavailable, restrict_self
from plugins.executor.models import Limits
from plugins.executor.rlimits import apply_rlimits
from plugins.executor.seccomp_filter import load_seccomp_filter

SYSTEM_READABLE = ("/usr/share/zoneinfo", "/etc/localtime", "/dev/null", "/dev/urandom")


class LockdownReport(BaseModel):
    """Which kernel layers a worker applied to itself, and why any is missing."""

    seccomp: bool = False
    seccomp_rules: int = 0
    landlock_abi: int = 0
    rlimits: dict[str, int] = Field(default_factory=dict)
    problems: list[str] = Field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every layer is active."""
        return self.seccomp and self.landlock_abi > 0 and bool(self.rlimits)


def lock_down(limits: Limits, source_paths: Iterable[str]) -> LockdownReport:
    """Apply every layer to this process (irrevocably) and report what held."""
    report = LockdownReport()
    try:
        report.rlimits = apply_rlimits(limits)
    except (OSError, ValueError) as error:
        report.problems.append(f"resource limits: {error}")
    try:
        report.landlock_abi = restrict_self(readable_paths(source_paths))
    except (LandlockUnavailable, OSError) as error:
        report.problems.append(f"landlock: {error}")
    try:
        report.seccomp_rules = load_seccomp_filter()
        report.seccomp = True
    except (OSError, RuntimeError, ValueError) as error:
        report.problems.append(f"seccomp: {error}")
    return report


def readable_paths(source_paths: Iterable[str]) -> list[str]:
    """What a locked-down worker may still read: the Python installation and
    import path (for lazy imports), the sources' files, time-zone data."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, *SYSTEM_READABLE}
    paths.update(p for p in sys.path if p and Path(p).exists())
    paths.update(site.getsitepackages())
    paths.update(str(Path(p).resolve()) for p in source_paths if Path(p).exists())
    return sorted(paths)
