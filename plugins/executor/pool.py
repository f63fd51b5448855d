"""Template processes, one per (workspace, representation) in use, and the
runs they fork.

A template loads the workspace once and never runs untrusted code; every
program runs in a fresh child forked from it (see template.py), so nothing a
program does is visible to a later one. The caller ships code, not data, and
reads the child's result itself, with a deadline and a byte limit; a child
past either is killed, and the caller gets an ExecutionResult whose error
says which.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from plugins.errors import BadInputError
from plugins.executor.caps import MalformedResult, failure, trusted_result
from plugins.executor.charts import may_draw
from plugins.executor.errors import WorkerStartError
from plugins.executor.lockdown import LockdownReport
from plugins.executor.messages import ChannelClosed, receive_message, send_message
from plugins.executor.models import (
    ExecutionResult,
    FocusRef,
    Limits,
    RunRequest,
    SourceRef,
    WorkerSpec,
)
from plugins.executor.result_channel import Ending, read_result
from plugins.executor.spawn import start_template
from plugins.model import Focus
from plugins.workspace import Workspace

DEFAULT_MAX_WORKERS = 4
START_TIMEOUT_SECONDS = 300.0
GRACE_SECONDS = 0.5
"""Time allowed on top of a run's timeout for forking, lockdown and the reply."""


TEMPLATE_DIED = "the executor's template process died; it is replaced"


@dataclass
class SpareHandle:
    """The caller's end of a channel to a template's child that waits for one
    request; `namespaces` are the foci it can serve (JSON form), `can_draw`
    whether it can draw charts (matplotlib prepared, or nothing to prepare)."""

    channel: socket.socket
    namespaces: list[dict | None]
    can_draw: bool


class SpareRefused(Exception):
    """The template could not prepare a child for a request (its focus failed)."""

    def __init__(self, error_type: str, message: str):
        super().__init__(message)
        self.error_type = error_type


class Template:
    """One template process and the control socket to it."""

    def __init__(self, spec: WorkerSpec):
        self.spec = spec
        self.control, template_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.process = start_template(template_end)
        finally:
            template_end.close()
        self.lockdown = self._start()

    def _start(self) -> LockdownReport:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        try:
            send_message(self.control, {"spec": self.spec.model_dump(mode="json")})
            message, _ = receive_message(self.control, deadline)
        except ChannelClosed as closed:
            self.kill()
            raise WorkerStartError(f"an executor template did not start: {closed}") from None
        if not message.get("ready"):
            self.kill()
            error_class = (
                BadInputError if message.get("type") == "BadInputError" else WorkerStartError
            )
            raise error_class(str(message.get("message")))
        return LockdownReport.model_validate(message["lockdown"])

    def run(self, request: RunRequest) -> ExecutionResult:
        """Hand `request` to the template's spare child and read its result,
        within its timeout. Interrupted midway (Ctrl-C), the template is
        stopped: its conversation with this caller cannot be resumed."""
        try:
            return self._run(request)
        except BaseException:
            self.kill()
            raise

    def _run(self, request: RunRequest) -> ExecutionResult:
        started = time.perf_counter()
        try:
            spare = self._spare_for(request.focus, may_draw(request.code))
        except ChannelClosed:
            self.kill()
            return failure("WorkerCrashed", TEMPLATE_DIED, _ms(started))
        except SpareRefused as refused:
            return failure(refused.error_type, str(refused), _ms(started))
        # the timeout is the program's: building a namespace or preparing charts is not in it
        deadline = time.monotonic() + request.timeout_seconds + GRACE_SECONDS
        read_end, write_end = os.pipe()
        try:
            with contextlib.suppress(ChannelClosed):  # a dead spare leaves the pipe empty
                send_message(spare.channel, {"run": request.model_dump(mode="json")}, (write_end,))
            os.close(write_end)
            spare.channel.close()
            reading = read_result(read_end, deadline, self.spec.limits.max_result_bytes)
            wants_status = reading.ending is Ending.COMPLETE and not reading.data
            send_message(self.control, {"finish": True, "status": wants_status})
            status = (
                receive_message(self.control, time.monotonic() + START_TIMEOUT_SECONDS)[0]
                if wants_status
                else {"status": {}}
            )
        except ChannelClosed:
            self.kill()
            return failure("WorkerCrashed", TEMPLATE_DIED, _ms(started))
        finally:
            os.close(read_end)
        return self._outcome(request, reading.data, reading.ending, status["status"], started)

    def _spare_for(self, focus: FocusRef | None, draws: bool) -> SpareHandle:
        """The template's next child, ready for `focus` and, when the program
        `draws`, for charts (asking for a new one when the namespace of `focus`
        or matplotlib was not there when it was forked)."""
        spare = self._receive_spare()
        wanted = focus.model_dump(mode="json") if focus else None
        if wanted in spare.namespaces and (spare.can_draw or not draws):
            return spare
        spare.channel.close()
        send_message(self.control, {"prepare": wanted, "charts": draws})
        return self._receive_spare()

    def _receive_spare(self) -> SpareHandle:
        message, fds = receive_message(self.control, time.monotonic() + START_TIMEOUT_SECONDS)
        if "refused" in message:
            refused = message["refused"]
            raise SpareRefused(str(refused["type"]), str(refused["message"]))
        (descriptor,) = fds
        described = message["spare"]
        return SpareHandle(
            socket.socket(fileno=descriptor), described["namespaces"], described["can_draw"]
        )

    def _outcome(
        self, request: RunRequest, data: bytes, ending: Ending, status: dict, started: float
    ) -> ExecutionResult:
        if ending is Ending.TIMEOUT:
            return failure(
                "Timeout",
                f"the code ran longer than {request.timeout_seconds:g} s and was stopped",
                _ms(started),
            )
        if ending is Ending.TOO_LARGE:
            return failure(
                "ResultTooLarge",
                f"the result was larger than {self.spec.limits.max_result_bytes:,} bytes; "
                "the run was stopped",
                _ms(started),
            )
        if not data:
            return failure("WorkerCrashed", _death_reason(status), _ms(started))
        try:
            return trusted_result(data, self.spec.limits, request.max_rows)
        except MalformedResult as malformed:
            return failure("MalformedResult", str(malformed), _ms(started))

    @property
    def alive(self) -> bool:
        """True while the template process runs."""
        return self.process.poll() is None

    def kill(self) -> None:
        """Stop the template now (its children die with it: PR_SET_PDEATHSIG)."""
        self.control.close()
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(GRACE_SECONDS * 4)
        except subprocess.TimeoutExpired:
            return


def _death_reason(status: dict) -> str:
    name = status.get("signal")
    if name == "SIGXCPU":
        return "the run used up its CPU time and was stopped"
    if name == "SIGKILL":
        return "the run was killed (probably out of memory)"
    if name:
        return f"the run crashed ({name})"
    return f"the run exited without a result (code {status.get('exit')})"


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def _version(location: str) -> str:
    """Modification time and size of a source file ("" for URLs), so that a
    template holding the old data of a file that changed is never reused for it."""
    try:
        status = os.stat(location)
    except OSError:
        return ""
    return f"{status.st_mtime_ns}:{status.st_size}"


def _absolute(location: str) -> str:
    return os.path.abspath(location) if os.path.exists(location) else location


@dataclass
class _Slots:
    idle: dict[WorkerSpec, list[Template]] = field(default_factory=dict)
    busy: int = 0
    last_used: dict[WorkerSpec, float] = field(default_factory=dict)


class ExecutorPool:
    """Template processes by workspace; `execute` runs one program in a fresh child."""

    def __init__(self, max_workers: int = DEFAULT_MAX_WORKERS, limits: Limits | None = None):
        self.max_workers = max_workers
        self.limits = limits or Limits()
        self._slots = _Slots()
        self._condition = threading.Condition()
        self._warned = False
        self.reports: list[LockdownReport] = []

    def execute(
        self,
        code: str,
        workspace: Workspace,
        representation: str = "pandas",
        focus: Focus | None = None,
        timeout_seconds: float = 10.0,
        max_rows: int | None = None,
    ) -> ExecutionResult:
        """Run `code` on `workspace` as `representation` shows it, keeping at
        most `max_rows` rows (default: the limits')."""
        focus_ref = (
            FocusRef(question=focus.question, entities=focus.entities, hops=focus.hops)
            if focus
            else None
        )
        request = RunRequest(
            code=code,
            focus=focus_ref,
            timeout_seconds=timeout_seconds,
            max_rows=self.limits.max_rows if max_rows is None else max_rows,
        )
        template = self._acquire(self.spec_for(workspace, representation))
        try:
            return template.run(request)
        finally:
            self._release(template)

    def spec_for(self, workspace: Workspace, representation: str) -> WorkerSpec:
        """The spec of `workspace` (how a template re-opens its sources)."""
        sources = tuple(
            SourceRef(
                location=_absolute(s.location),
                plugin=s.plugin,
                name=s.name,
                version=_version(s.location),
            )
            for s in workspace.sources
        )
        return WorkerSpec(sources=sources, representation=representation, limits=self.limits)

    def template_pids(self) -> list[int]:
        """Process ids of the idle templates (for diagnostics and tests)."""
        with self._condition:
            return [t.process.pid for templates in self._slots.idle.values() for t in templates]

    def warm(self, workspace: Workspace, representation: str = "pandas") -> LockdownReport:
        """Start a template now (cold start off the first call's clock)."""
        template = self._acquire(self.spec_for(workspace, representation))
        self._release(template)
        return template.lockdown

    def _acquire(self, spec: WorkerSpec) -> Template:
        with self._condition:
            while True:
                idle = self._slots.idle.get(spec)
                if idle:
                    self._slots.busy += 1
                    return idle.pop()
                if self._total() < self.max_workers or self._evict_one():
                    self._slots.busy += 1
                    break
                self._condition.wait()
        try:
            template = Template(spec)
        except BaseException:
            with self._condition:
                self._slots.busy -= 1
                self._condition.notify()
            raise
        self._note_lockdown(template.lockdown)
        return template

    def _release(self, template: Template) -> None:
        with self._condition:
            self._slots.busy -= 1
            if template.alive:
                self._slots.idle.setdefault(template.spec, []).append(template)
                self._slots.last_used[template.spec] = time.monotonic()
            self._condition.notify()

    def _total(self) -> int:
        return self._slots.busy + sum(len(t) for t in self._slots.idle.values())

    def _evict_one(self) -> bool:
        """Stop the least recently used idle template to make room."""
        candidates = [spec for spec, templates in self._slots.idle.items() if templates]
        if not candidates:
            return False
        oldest = min(candidates, key=lambda s: self._slots.last_used.get(s, 0.0))
        self._slots.idle[oldest].pop().kill()
        return True

    def _note_lockdown(self, report: LockdownReport) -> None:
        self.reports = [*self.reports[-9:], report]
        if not report.complete and not self._warned:
            self._warned = True
            print(
                "pandora: WARNING: the executor's kernel sandbox is incomplete; "
                "generated code runs with weaker isolation: " + "; ".join(report.problems),
                file=sys.stderr,
            )

    def shutdown(self) -> None:
        """Stop every idle template (busy ones stop when their socket closes)."""
        with self._condition:
            for templates in self._slots.idle.values():
                for template in templates:
                    template.kill()
            self._slots.idle.clear()
