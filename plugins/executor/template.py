"""The template process: it loads a workspace once and forks one child per
program; it never runs untrusted code itself.

Started by the pool as `python -I` with a minimal environment and no
descriptor of the caller's but its control socket. Messages on that socket
(see `messages.py`):

    caller -> {"spec": WorkerSpec}        template -> {"ready": true, "lockdown": report}
    caller -> {"run": RunRequest} + the write end of a result pipe
    caller -> {"finish": true, "status": bool}
                                          template -> {"status": {"exit", "signal"}} if asked

The child writes its ExecutionResult as JSON on the result pipe and closes
it; the caller reads it to its end (or its deadline, or its byte limit),
then says `finish`: the template kills the child if it still runs and reaps
it, reporting how it ended only when asked (a run that gave no result).
"""

from __future__ import annotations

import gc
import importlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import pandas as pd

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor.child import run_child
from plugins.executor.library_doors import close_library_doors
from plugins.executor.lockdown import LockdownReport, prepare_lockdown
from plugins.executor.messages import ChannelClosed, receive_message, send_message
from plugins.executor.models import CodeError, ExecutionResult, FocusRef, RunRequest, WorkerSpec
from plugins.executor.module_guard import guard_value
from plugins.executor.policy import ALLOWED_MODULES
from plugins.executor.results import normalise
from plugins.executor.rlimits import open_descriptors
from plugins.executor.runner import run_program
from plugins.executor.tripwire import Tripwire

NAMESPACE_CACHE_SIZE = 8
PROBE_TIMEOUT_SECONDS = 10.0
WARM_UP_PROGRAM = "import math\nprint(1)\nresult = [math.floor(2.5), 'x']"
"""The executor's own constant program, run once in the template (never a caller's)."""


class TemplateSession:
    """The loaded workspace, its namespaces by focus, and the prepared lockdown."""

    def __init__(self, spec: WorkerSpec, control_fd: int):
        self.spec = spec
        self.control_fd = control_fd
        self.require_complete_lockdown = False
        sources = [load_source(s.location, plugin=s.plugin, name=s.name) for s in spec.sources]
        self.workspace = Workspace.of(sources)
        self.representation = get_registry().representation(spec.representation)
        self.language = self.representation.language
        self.namespaces: dict[FocusRef | None, dict[str, Any]] = {}
        for module in sorted(ALLOWED_MODULES):
            _import_if_present(module)
        if self.language == "sql":
            from plugins.sql_schema import run_query

            run_query(self.workspace, "SELECT 1")  # tables copied, connections opened, here
        else:
            self.prepare_namespace(None)
        close_library_doors()
        self.lockdown = prepare_lockdown(_readable_files(sources))
        self.tripwire = Tripwire()
        self._warm_up()

    def _warm_up(self) -> None:
        """Run the executor's own code paths once here, then freeze the heap
        for the garbage collector: a child then writes (and copies) only the
        memory pages its program touches, not every page on a first call."""
        limits = self.spec.limits
        for value in (pd.DataFrame({"a": [1]}, index=pd.Index(["x"], name="k")), [1.5], "x"):
            normalise(value, limits)
        run_program(WARM_UP_PROGRAM, {}, limits, self.tripwire, limits.max_rows).model_dump_json()
        gc.freeze()

    def prepare_namespace(self, focus: FocusRef | None) -> None:
        """Build (or keep) the namespace programs with `focus` see; the
        template builds it, so that children only read it."""
        if self.language == "sql" or focus in self.namespaces:
            return
        if len(self.namespaces) >= NAMESPACE_CACHE_SIZE:
            self.namespaces.pop(next(k for k in self.namespaces if k is not None))
        plugin_focus = Focus(**focus.model_dump()) if focus else None
        raw = self.representation.namespace(self.workspace, plugin_focus)
        self.namespaces[focus] = {name: guard_value(v, name) for name, v in raw.items()}
        gc.freeze()

    def fork_child(self, request: RunRequest, result_fd: int) -> int:
        """Fork the child that runs `request`; return its process id."""
        pid = os.fork()
        if pid == 0:
            run_child(self, request, result_fd)
        return pid

    def probe_lockdown(self) -> LockdownReport:
        """Fork one child that only applies the lockdown, and read what held."""
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                highest = max(open_descriptors())
                report = self.lockdown.apply(self.spec.limits, PROBE_TIMEOUT_SECONDS, highest)
                os.write(write_end, report.model_dump_json().encode())
            finally:
                os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as reader:
            data = reader.read()
        os.waitpid(pid, 0)
        if not data:
            return LockdownReport(problems=["the lockdown probe died"])
        return LockdownReport.model_validate_json(data)


def main() -> None:
    """Entry point: `python -I -c ... <control fd> <project root>`."""
    control = socket.socket(fileno=int(sys.argv[1]))
    _silence_standard_streams()
    try:
        message, _ = receive_message(control)
        spec = WorkerSpec.model_validate(message["spec"])
        session = TemplateSession(spec, control.fileno())
    except Exception as error:  # reported to the caller, which raises it
        send_message(control, {"ready": False, "type": type(error).__name__, "message": str(error)})
        return
    send_message(control, {"ready": True, "lockdown": session.probe_lockdown().model_dump()})
    while True:
        try:
            message, fds = receive_message(control)
        except ChannelClosed:
            return
        if not _serve_one(session, control, RunRequest.model_validate(message["run"]), fds):
            return


def _serve_one(
    session: TemplateSession, control: socket.socket, request: RunRequest, fds: list[int]
) -> bool:
    """Run one request; False when the caller went away."""
    result_fd, *extra = fds
    for descriptor in extra:
        os.close(descriptor)
    pid = None
    try:
        session.prepare_namespace(request.focus)
    except Exception as error:  # a focus the representation cannot build: no child
        failure = ExecutionResult(error=CodeError(type=type(error).__name__, message=str(error)))
        os.write(result_fd, failure.model_dump_json().encode())
    else:
        pid = session.fork_child(request, result_fd)
    os.close(result_fd)
    try:
        message, _ = receive_message(control)
    except ChannelClosed:
        if pid:
            _stop(pid)
        return False
    status = _stop(pid) if pid else {"exit": 0, "signal": None}
    if message.get("status"):
        send_message(control, {"status": status})
    return True


def _stop(pid: int) -> dict[str, Any]:
    """Kill the child if it still runs (a zombie keeps its status), reap it,
    and say how it ended."""
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"exit": None, "signal": signal.Signals(os.WTERMSIG(status)).name}
    return {"exit": os.WEXITSTATUS(status), "signal": None}


def _readable_files(sources: list[Any]) -> list[str]:
    """The files of the sources: their locations, and a database's file."""
    paths = [source.location for source in sources]
    paths += [source.handle.path for source in sources if getattr(source.handle, "path", None)]
    return [path for path in paths if Path(path).exists()]


def _import_if_present(module: str) -> None:
    """Import now what programs may import later."""
    try:
        importlib.import_module(module)
    except ImportError:
        return


def _silence_standard_streams() -> None:
    """Programs' output is captured in memory; fds 0-2 go to /dev/null, so
    that RLIMIT_FSIZE=0 never meets an inherited log file."""
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    os.close(null)
