"""An audit hook (PEP 578) that refuses dangerous events while a program runs.

It is a tripwire, not a wall: hooks see only what CPython audits. Once it
fires, the run is reported as a SandboxViolation even if the program caught
the exception.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from plugins.executor.errors import SandboxViolation

REFUSED_EVENTS = frozenset(
    {
        "os.system",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.fork",
        "os.forkpty",
        "os.kill",
        "os.killpg",
        "os.remove",
        "os.rename",
        "os.rmdir",
        "os.mkdir",
        "os.chmod",
        "os.chown",
        "os.link",
        "os.symlink",
        "os.truncate",
        "os.putenv",
        "os.unsetenv",
        "subprocess.Popen",
        "sys.settrace",
        "sys.setprofile",
        "sys.addaudithook",
        "code.__new__",
        "function.__new__",
    }
)
REFUSED_PREFIXES = ("socket.", "ctypes.", "shutil.", "winreg.", "_thread.")
REFUSED_IMPORTS = frozenset({"subprocess", "socket", "ctypes", "_ctypes", "multiprocessing", "pty"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Tripwire:
    """Installs the hook once per process; `armed` while user code runs."""

    def __init__(self) -> None:
        self.armed = False
        self.tripped: str | None = None
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed:
            return
        reason = _refusal(event, args)
        if reason is not None:
            self.tripped = reason
            raise SandboxViolation(reason)

    def arm(self) -> None:
        """Start refusing (call just before the program runs)."""
        self.tripped = None
        self.armed = True

    def disarm(self) -> str | None:
        """Stop refusing; return what tripped the wire during the run, if anything."""
        self.armed = False
        return self.tripped


def _refusal(event: str, args: tuple[Any, ...]) -> str | None:
    if event in REFUSED_EVENTS or event.startswith(REFUSED_PREFIXES):
        return f"{event} is not allowed in the executor"
    if event == "open" and _opens_for_writing(args):
        return f"opening {args[0]!r} for writing is not allowed in the executor"
    if event == "import" and str(args[0]).split(".", 1)[0] in REFUSED_IMPORTS:
        return f"import of {args[0]!r} is not allowed in the executor"
    return None


def _opens_for_writing(args: tuple[Any, ...]) -> bool:
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    return (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool(
        isinstance(flags, int) and flags & WRITE_FLAGS
    )
