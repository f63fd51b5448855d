"""The template process: it loads a workspace once and forks one child per
program; it never runs untrusted code itself.

The child for the next program is forked ahead (a "spare") and locks itself
down while it waits, so a request meets a ready process; a request whose
focus needs a namespace the spare was forked without gets a new child.

Started by the pool as `python -I` with a minimal environment and no
descriptor of the caller's but its control socket. Messages on that socket
(see `messages.py`):

    caller -> {"spec": WorkerSpec}        template -> {"ready": true, "lockdown": report}
    caller -> {"run": RunRequest} + the write end of a result pipe
    caller -> {"finish": true, "status": bool}
                                          template -> {"status": {"exit", "signal"}} if asked

The template passes the request and the pipe to its spare child, which
writes its ExecutionResult as JSON on the pipe and closes it; the caller
reads it to its end (or its deadline, or its byte limit), then says
`finish`: the template kills the child if it still runs, reaps it between
runs, reports how it ended only when asked (a run that gave no result), and
forks the next spare.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor.child import serve_one_run
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

    def fork_spare(self) -> Spare:
        """Fork the child that will run the next request: it locks itself
        down and waits for the request on a channel of its own."""
        template_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            template_end.close()
            serve_one_run(self, child_end)
        child_end.close()
        return Spare(pid, template_end, frozenset(self.namespaces))

    def probe_lockdown(self) -> LockdownReport:
        """Fork one child that only applies the lockdown, and read what held."""
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                report = self.lockdown.apply(self.spec.limits, max(open_descriptors()))
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


@dataclass
class Spare:
    """A child forked ahead, locked down, waiting for its one request."""

    pid: int
    channel: socket.socket
    namespaces: frozenset[FocusRef | None]
    """The namespaces that existed when it was forked: the ones it can serve."""


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
    ended = EndedChildren()
    spare: Spare | None = session.fork_spare()
    try:
        while spare is not None:
            try:
                message, fds = receive_message(control)
            except ChannelClosed:
                ended.end(spare.pid)
                return
            request = RunRequest.model_validate(message["run"])
            spare = _serve_one(session, control, request, fds, spare, ended)
    finally:
        ended.reap_all()


class EndedChildren:
    """Children killed (or exited) whose process is not reaped yet.

    Reaping waits for the kernel to tear a process down, which takes a while
    for a large one: it happens when SIGCHLD says the teardown is over, off
    the caller's path.
    """

    def __init__(self) -> None:
        self.pending: set[int] = set()
        signal.signal(signal.SIGCHLD, self._reap_finished)

    def end(self, pid: int) -> None:
        """Kill `pid` if it still runs; reap it when it is gone."""
        os.kill(pid, signal.SIGKILL)
        self.pending.add(pid)
        self._reap_finished()

    @staticmethod
    def end_now(pid: int) -> dict[str, Any]:
        """Kill `pid` if it still runs (a zombie keeps its status), reap it
        now, and say how it ended."""
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            return {"exit": None, "signal": signal.Signals(os.WTERMSIG(status)).name}
        return {"exit": os.WEXITSTATUS(status), "signal": None}

    def _reap_finished(self, *_: object) -> None:
        for pid in list(self.pending):
            if os.waitpid(pid, os.WNOHANG)[0]:
                self.pending.discard(pid)

    def reap_all(self) -> None:
        """Wait for every pending child (the template is stopping)."""
        for pid in list(self.pending):
            self.pending.discard(pid)
            os.waitpid(pid, 0)


def _serve_one(
    session: TemplateSession,
    control: socket.socket,
    request: RunRequest,
    fds: list[int],
    spare: Spare,
    ended: EndedChildren,
) -> Spare | None:
    """Hand one request to the spare child (a new one if it cannot serve the
    request's focus), wait for the caller to finish reading, end the child,
    and fork the next spare. None when the caller went away."""
    result_fd, *extra = fds
    for descriptor in extra:
        os.close(descriptor)
    pid = None
    try:
        spare = _spare_for(session, request.focus, spare, ended)
    except Exception as error:  # a focus the representation cannot build: no run
        failure = ExecutionResult(error=CodeError(type=type(error).__name__, message=str(error)))
        os.write(result_fd, failure.model_dump_json().encode())
    else:
        pid = spare.pid
        # if the spare died, the caller reads an empty result and asks why
        with contextlib.suppress(ChannelClosed):
            send_message(spare.channel, {"run": request.model_dump(mode="json")}, (result_fd,))
        spare.channel.close()
    os.close(result_fd)
    try:
        message, _ = receive_message(control)
    except ChannelClosed:
        message = None
    wants_status = bool(message and message.get("status"))
    if pid and wants_status:
        send_message(control, {"status": ended.end_now(pid)})
    elif pid:
        ended.end(pid)
    elif wants_status:
        send_message(control, {"status": {"exit": 0, "signal": None}})
    return session.fork_spare() if message is not None else None


def _spare_for(
    session: TemplateSession, focus: FocusRef | None, spare: Spare, ended: EndedChildren
) -> Spare:
    """`spare`, or a new one when `focus` needs a namespace it was forked without."""
    if focus in spare.namespaces:
        return spare
    ended.end(spare.pid)
    spare.channel.close()
    session.prepare_namespace(focus)
    return session.fork_spare()


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
