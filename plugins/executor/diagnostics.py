"""What isolation the executor has on this machine, for `pandora doctor` and
`pandora plugins`: what the kernel offers, and what live workers applied."""

from __future__ import annotations

import importlib.util

from pydantic import BaseModel, Field

from plugins.executor.landlock import landlock_abi
from plugins.executor.lockdown import LockdownReport


class ExecutorDiagnostics(BaseModel):
    """Available and applied isolation layers."""

    seccomp_available: bool
    landlock_abi: int
    rlimits_available: bool
    workers: list[LockdownReport] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)


def executor_diagnostics() -> ExecutorDiagnostics:
    """Probe the kernel (without locking this process down) and collect the
    reports of the default pool's workers."""
    from plugins.executor.api import default_pool

    seccomp_available = _seccomp_available()
    abi = landlock_abi()
    rlimits = importlib.util.find_spec("resource") is not None
    warnings = []
    if not seccomp_available:
        warnings.append("seccomp is unavailable: generated code can run programs and open sockets")
    if abi == 0:
        warnings.append("Landlock is unavailable: generated code can read any readable file")
    workers = default_pool().reports
    warnings += [problem for report in workers for problem in report.problems]
    return ExecutorDiagnostics(
        seccomp_available=seccomp_available,
        landlock_abi=abi,
        rlimits_available=rlimits,
        workers=workers,
        warnings=warnings,
    )


def _seccomp_available() -> bool:
    try:
        import pyseccomp

        pyseccomp.get_api()
    except (ImportError, OSError, RuntimeError):
        return False
    with open("/proc/self/status") as status:
        return any(line.startswith("Seccomp:") for line in status)
