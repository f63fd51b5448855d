"""A write lock shared by every process using one local store.

Chroma's local store is one SQLite file plus vector index files; Pandora
serialises its writes (and its check-then-add dedup) across processes with an
advisory `flock` on a file beside them. The kernel releases it when a process
dies, so an interrupted import never leaves the store locked.
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class WriteLock:
    """An exclusive lock on `path` (None: a lock for this process only, used
    with a Chroma server, which orders writes itself)."""

    def __init__(self, path: Path | None):
        self.path = path
        self._thread_lock = threading.RLock()
        self._depth = 0

    @contextmanager
    def held(self) -> Iterator[None]:
        """Hold the lock for the duration of the `with` block (re-entrant)."""
        with self._thread_lock:
            if self.path is None or self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            with open(self.path, "a+b") as handle:
                fcntl.flock(handle, fcntl.LOCK_EX)
                self._depth = 1
                try:
                    yield
                finally:
                    self._depth = 0
                    fcntl.flock(handle, fcntl.LOCK_UN)
