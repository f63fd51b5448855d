"""An audit hook (PEP 578) that refuses dangerous events while a program runs.

It is a tripwire, not a wall: hooks see only what CPython audits. Once it
fires, the run is reported as a SandboxViolation even if the program caught
the exception.

Besides processes, files and sockets it refuses two ways of running code
that is not the program: unpickling anything that names a global (the
`pickle.find_class` event, whichever unpickler a library offers), and
compiling or executing code other than the program's own, except where the
standard library or networkx build code from names they checked themselves
(`COMPILERS_ALLOWED`), and the import system loads an installed module.
"""

from __future__ import annotations

import os
import sys
from types import CodeType, FrameType
from typing import Any

from plugins.executor.charts import drawing_prepared
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
        "pickle.find_class",
    }
)
REFUSED_PREFIXES = ("socket.", "ctypes.", "shutil.", "winreg.", "_thread.")
REFUSED_IMPORTS = frozenset({"subprocess", "socket", "ctypes", "_ctypes", "multiprocessing", "pty"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
CODE_EVENTS = frozenset({"compile", "exec"})
COMPILERS_ALLOWED = frozenset(
    {
        ("importlib._bootstrap", "_call_with_frames_removed"),  # a lazy import of a module
        ("ast", "parse"),  # a syntax tree only (DataFrame.query parses its expression)
        ("collections", "namedtuple"),  # field names checked as identifiers, no builtins
        ("networkx.utils.decorators", "compile"),  # argmap: wrappers of its own functions
        ("typing", "__init__"),  # ForwardRef compiles an annotation; evaluating it is closed
        ("jinja2.environment", "_compile"),  # to_latex: pandas' own template files
        ("jinja2.environment", "from_code"),
    }
)
"""(module, function) that may compile and run code while a program runs:
each builds it from names it validated or from files of an installed
package, never from a program's string (jinja2 is reachable only through
pandas' `to_latex`: `DataFrame.style`, which takes templates, is closed)."""


class Tripwire:
    """Installs the hook once per process; `armed` while user code runs."""

    def __init__(self) -> None:
        self.armed = False
        self.tripped: str | None = None
        self.program: CodeType | None = None
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed:
            return
        if event in CODE_EVENTS:
            reason = self._code_refusal(event, args, sys._getframe(1))
        else:
            reason = _refusal(event, args)
        if reason is not None:
            self.tripped = reason
            raise SandboxViolation(reason)

    def _code_refusal(self, event: str, args: tuple[Any, ...], caller: FrameType) -> str | None:
        if event == "exec" and args and args[0] is self.program:
            return None
        where = (caller.f_globals.get("__name__"), caller.f_code.co_name)
        if where in COMPILERS_ALLOWED:
            return None
        return (
            f"{event} of code other than the program is not allowed in the executor "
            f"(asked by {where[0]}.{where[1]})"
        )

    def arm(self, program: CodeType | None = None) -> None:
        """Start refusing (call just before `program`, already compiled, runs)."""
        self.tripped = None
        self.program = program
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
    drawing = event == "import" and str(args[0]).split(".", 1)[0] == "matplotlib"
    if drawing and not drawing_prepared():
        return "matplotlib was not prepared for this run: name what draws (plot, hist, draw)"
    return None


def _opens_for_writing(args: tuple[Any, ...]) -> bool:
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    return (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool(
        isinstance(flags, int) and flags & WRITE_FLAGS
    )
