"""Resource limits a child sets on itself before running its program.

RLIMIT_AS caps memory (an allocation past it fails with MemoryError),
RLIMIT_CPU caps the run's CPU time (SIGXCPU past it: a backstop behind the
caller's wall-clock deadline, which is the timeout), RLIMIT_FSIZE=0 forbids growing any file,
RLIMIT_NOFILE caps open files, RLIMIT_CORE=0 avoids core dumps.
"""

from __future__ import annotations

import math
import os
import resource
import signal

from plugins.executor.models import Limits

SPARE_FILE_DESCRIPTORS = 32


def apply_rlimits(limits: Limits, highest_descriptor: int) -> dict[str, int]:
    """Set the limits on this process; return them by name. `highest_descriptor`
    is the highest descriptor number the process may already hold."""
    address_space = current_address_space() + limits.memory_mb * 1024 * 1024
    cpu = _cpu_seconds_used() + limits.cpu_seconds
    chosen = {
        "RLIMIT_AS": address_space,
        "RLIMIT_CPU": cpu,
        "RLIMIT_FSIZE": 0,
        "RLIMIT_NOFILE": highest_descriptor + SPARE_FILE_DESCRIPTORS,
        "RLIMIT_CORE": 0,
    }
    # writing past RLIMIT_FSIZE must fail with an error, not kill the child
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for name, value in chosen.items():
        resource.setrlimit(getattr(resource, name), (value, value))
    return chosen


def _cpu_seconds_used() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return math.ceil(usage.ru_utime + usage.ru_stime)


def current_address_space() -> int:
    """The bytes of address space this process maps now."""
    with open("/proc/self/statm", "rb") as statm:
        pages = int(statm.read().split()[0])
    return pages * resource.getpagesize()


def open_descriptors() -> list[int]:
    """The descriptors this process holds, in order."""
    return sorted(int(fd) for fd in os.listdir("/proc/self/fd"))
