"""The caller's end of a child's result channel: read it with a deadline and
a byte limit, so that a child can neither block the caller past its timeout
nor grow the caller's memory past the cap (no length header to trust: the
result ends where the child's write end closes)."""

from __future__ import annotations

import os
import select
import time
from dataclasses import dataclass
from enum import Enum

CHUNK_BYTES = 1 << 20


class Ending(Enum):
    """How reading a result channel ended."""

    COMPLETE = "complete"
    TIMEOUT = "timeout"
    TOO_LARGE = "too_large"


@dataclass
class Reading:
    """The bytes read and how reading ended."""

    data: bytes
    ending: Ending


def read_result(descriptor: int, deadline: float, byte_limit: int) -> Reading:
    """Read `descriptor` until end of file, `deadline` (time.monotonic) or more
    than `byte_limit` bytes, whichever comes first."""
    os.set_blocking(descriptor, False)
    poller = select.poll()
    poller.register(descriptor, select.POLLIN | select.POLLHUP)
    chunks: list[bytes] = []
    size = 0
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Reading(b"", Ending.TIMEOUT)
        if not poller.poll(remaining * 1000):
            continue
        try:
            chunk = os.read(descriptor, min(CHUNK_BYTES, byte_limit + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:
            return Reading(b"".join(chunks), Ending.COMPLETE)
        size += len(chunk)
        if size > byte_limit:
            return Reading(b"", Ending.TOO_LARGE)
        chunks.append(chunk)
