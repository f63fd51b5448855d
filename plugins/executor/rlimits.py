"""Resource limits a worker sets on itself before running programs.

RLIMIT_AS caps memory (a program's allocation fails with MemoryError),
RLIMIT_FSIZE=0 forbids growing any file, RLIMIT_NOFILE caps open files,
RLIMIT_CORE=0 avoids core dumps, RLIMIT_CPU caps the worker's lifetime CPU
(the per-run limit is the pool's wall-clock timeout).
"""

from __future__ import annotations

import os
import resource
import signal

from plugins.executor.models import Limits

SPARE_FILE_DESCRIPTORS = 32


def apply_rlimits(limits: Limits) -> dict[str, int]:
    """Set the limits on this process; return them by name (soft values)."""
    address_space = _current_address_space() + limits.memory_mb * 1024 * 1024
    cpu = int(resource.getrusage(resource.RUSAGE_SELF).ru_utime) + limits.cpu_seconds_per_worker
    open_files = _highest_open_descriptor() + SPARE_FILE_DESCRIPTORS
    chosen = {
        "RLIMIT_AS": address_space,
        "RLIMIT_CPU": cpu,
        "RLIMIT_FSIZE": 0,
        "RLIMIT_NOFILE": open_files,
        "RLIMIT_CORE": 0,
    }
    # writing past RLIMIT_FSIZE must fail with an error, not kill the worker
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for name, value in chosen.items():
        resource.setrlimit(getattr(resource, name), (value, value))
    return chosen


def _current_address_space() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[0])
    return pages * resource.getpagesize()


def _highest_open_descriptor() -> int:
    return max(int(fd) for fd in os.listdir("/proc/self/fd"))
