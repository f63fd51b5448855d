"""Worker processes, started once per (workspace, representation) and reused.

A call ships code, not data. A worker that times out is killed from outside
(SIGKILL after the wall-clock timeout); one that crashes or dies of a limit is
replaced; the caller gets an ExecutionResult whose error says which.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import threading
import time
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from plugins.errors import BadInputError
from plugins.executor.errors import WorkerStartError
from plugins.executor.lockdown import LockdownReport
from plugins.executor.models import (
    CodeError,
    ExecutionResult,
    FocusRef,
    Limits,
    RunRequest,
    SourceRef,
    WorkerSpec,
)
from plugins.executor.policy import ALLOWED_MODULES
from plugins.model import Focus
from plugins.sources import url_scheme
from plugins.workspace import Workspace

START_METHOD = "forkserver"
PRELOADED_MODULES = ["plugins.executor.worker", *sorted(ALLOWED_MODULES)]
DEFAULT_MAX_WORKERS = 4
START_TIMEOUT_SECONDS = 300.0
GRACE_SECONDS = 0.5


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self, spec: WorkerSpec, context: multiprocessing.context.BaseContext):
        self.spec = spec
        self.connection, child_end = context.Pipe(duplex=True)
        self.process = context.Process(
            target=_worker_entry, args=(spec.model_dump_json(), child_end), daemon=True
        )
        with _caller_main_module_hidden():
            self.process.start()
        child_end.close()
        self.lockdown = self._wait_until_ready()

    def _wait_until_ready(self) -> LockdownReport:
        if not self.connection.poll(START_TIMEOUT_SECONDS):
            self.kill()
            raise WorkerStartError("an executor worker did not start in time")
        try:
            message = json.loads(self.connection.recv_bytes())
        except (EOFError, OSError) as error:
            self.kill()
            raise WorkerStartError(f"an executor worker died while starting: {error}") from error
        if not message["ready"]:
            self.kill()
            error_class = BadInputError if message["type"] == "BadInputError" else WorkerStartError
            raise error_class(message["message"])
        return LockdownReport.model_validate(message["lockdown"])

    def run(self, request: RunRequest) -> ExecutionResult:
        """Send one program and wait for its result, at most its timeout (plus
        a grace period for the worker's own bookkeeping)."""
        started = time.perf_counter()
        try:
            self.connection.send_bytes(request.model_dump_json().encode())
            if not self.connection.poll(request.timeout_seconds + GRACE_SECONDS):
                self.kill()
                return _failure(
                    "Timeout",
                    f"the code ran longer than {request.timeout_seconds:g} s and was stopped",
                    started,
                )
            return ExecutionResult.model_validate_json(self.connection.recv_bytes())
        except (EOFError, OSError):
            self.kill()
            return _failure("WorkerCrashed", self._death_reason(), started)

    def _death_reason(self) -> str:
        self.process.join(GRACE_SECONDS)
        code = self.process.exitcode
        if code is not None and code < 0:
            name = signal.Signals(-code).name
            if name == "SIGXCPU":
                return "the worker used up its CPU limit and was stopped"
            if name == "SIGKILL":
                return "the worker was killed (probably out of memory)"
            return f"the worker crashed ({name}); it was replaced"
        return f"the worker exited (code {code}); it was replaced"

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.is_alive()

    def kill(self) -> None:
        """Stop the process now and release its pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(GRACE_SECONDS)
        self.connection.close()


@contextmanager
def _caller_main_module_hidden() -> Iterator[None]:
    """Start workers without re-running the caller's script in them.

    multiprocessing re-imports `__main__` in every child it starts, which
    would re-run a script that lacks an `if __name__ == "__main__":` guard and
    fails outright for `python -` or an embedded interpreter. Workers need
    nothing from the caller's script, so an empty `__main__` is shown instead
    while the process starts.
    """
    caller_main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = caller_main


def _worker_entry(spec_json: str, connection: object) -> None:
    from plugins.executor.worker import serve

    serve(spec_json, connection)


def _version(location: str) -> str:
    """Modification time and size of a source file ("" for URLs), so that a worker
    holding the old data of a file that changed is never reused for it."""
    try:
        status = os.stat(location)
    except OSError:
        return ""
    return f"{status.st_mtime_ns}:{status.st_size}"


def _failure(error_type: str, message: str, started: float) -> ExecutionResult:
    return ExecutionResult(
        error=CodeError(type=error_type, message=message),
        elapsed_ms=(time.perf_counter() - started) * 1000,
    )


@dataclass
class _Slots:
    idle: dict[WorkerSpec, list[Worker]] = field(default_factory=dict)
    busy: int = 0
    last_used: dict[WorkerSpec, float] = field(default_factory=dict)


class ExecutorPool:
    """Reusable sandboxed workers; `execute` runs one program in one of them."""

    def __init__(self, max_workers: int = DEFAULT_MAX_WORKERS, limits: Limits | None = None):
        self.max_workers = max_workers
        self.limits = limits or Limits()
        self.context = multiprocessing.get_context(START_METHOD)
        self.context.set_forkserver_preload(PRELOADED_MODULES)
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
    ) -> ExecutionResult:
        """Run `code` on `workspace` as `representation` shows it."""
        focus_ref = (
            FocusRef(question=focus.question, entities=focus.entities, hops=focus.hops)
            if focus
            else None
        )
        spec = self.spec_for(workspace, representation, focus_ref)
        request = RunRequest(code=code, focus=focus_ref, timeout_seconds=timeout_seconds)
        worker = self._acquire(spec)
        try:
            result = worker.run(request)
        finally:
            self._release(worker)
        return result

    def spec_for(
        self, workspace: Workspace, representation: str, focus: FocusRef | None = None
    ) -> WorkerSpec:
        """The worker spec of `workspace` (how a worker re-opens its sources).

        A knowledge graph behind a URL is read before the worker locks itself
        down, so its worker is specific to the focus it prefetched.
        """
        remote_graph = any(s.kind == "kg" and url_scheme(s.location) for s in workspace.sources)
        sources = tuple(
            SourceRef(
                location=s.location, plugin=s.plugin, name=s.name, version=_version(s.location)
            )
            for s in workspace.sources
        )
        return WorkerSpec(
            sources=sources,
            representation=representation,
            limits=self.limits,
            prefetch_focus=focus if remote_graph else None,
        )

    def warm(self, workspace: Workspace, representation: str = "pandas") -> LockdownReport:
        """Start a worker now (cold start off the first call's clock)."""
        worker = self._acquire(self.spec_for(workspace, representation))
        self._release(worker)
        return worker.lockdown

    def _acquire(self, spec: WorkerSpec) -> Worker:
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
            worker = Worker(spec, self.context)
        except BaseException:
            with self._condition:
                self._slots.busy -= 1
                self._condition.notify()
            raise
        self._note_lockdown(worker.lockdown)
        return worker

    def _release(self, worker: Worker) -> None:
        with self._condition:
            self._slots.busy -= 1
            if worker.alive:
                self._slots.idle.setdefault(worker.spec, []).append(worker)
                self._slots.last_used[worker.spec] = time.monotonic()
            self._condition.notify()

    def _total(self) -> int:
        return self._slots.busy + sum(len(w) for w in self._slots.idle.values())

    def _evict_one(self) -> bool:
        """Stop the least recently used idle worker to make room."""
        candidates = [spec for spec, workers in self._slots.idle.items() if workers]
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
        """Stop every idle worker (busy ones stop when their pipe closes)."""
        with self._condition:
            for workers in self._slots.idle.values():
                for worker in workers:
                    worker.kill()
            self._slots.idle.clear()
