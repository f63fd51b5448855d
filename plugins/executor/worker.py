"""The worker process: load the workspace once, lock down, then run programs.

Messages are JSON both ways (never pickle: the parent must not deserialise
objects from a process that runs untrusted code). The worker answers one
`ready` message, then one ExecutionResult per RunRequest, until its pipe closes.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from multiprocessing.connection import Connection
from typing import Any

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor.library_doors import close_library_doors
from plugins.executor.lockdown import lock_down
from plugins.executor.models import CodeError, ExecutionResult, FocusRef, RunRequest, WorkerSpec
from plugins.executor.module_guard import guard_value
from plugins.executor.policy import ALLOWED_MODULES
from plugins.executor.results import render_value
from plugins.executor.runner import run_program
from plugins.executor.tripwire import Tripwire

NAMESPACE_CACHE_SIZE = 8


def serve(spec_json: str, connection: Connection) -> None:
    """Entry point of a worker process."""
    _silence_standard_streams()
    spec = WorkerSpec.model_validate_json(spec_json)
    try:
        session = WorkerSession(spec)
    except Exception as error:  # reported to the parent, which raises it
        connection.send_bytes(
            json.dumps(
                {"ready": False, "type": type(error).__name__, "message": str(error)}
            ).encode()
        )
        return
    connection.send_bytes(
        json.dumps({"ready": True, "lockdown": session.lockdown.model_dump()}).encode()
    )
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        result = session.run(RunRequest.model_validate_json(message))
        connection.send_bytes(result.model_dump_json().encode())


class WorkerSession:
    """The loaded workspace, its namespaces by focus, and the lockdown report."""

    def __init__(self, spec: WorkerSpec):
        self.spec = spec
        sources = [load_source(s.location, plugin=s.plugin, name=s.name) for s in spec.sources]
        self.workspace = Workspace.of(sources)
        self.representation = get_registry().representation(spec.representation)
        self.namespaces: dict[FocusRef | None, dict[str, Any]] = {}
        for module in sorted(ALLOWED_MODULES):
            _import_if_present(module)
        if self.representation.language == "sql":
            self._run_query("SELECT 1", 10.0)  # open the connection before sockets close
        else:
            self._namespace(spec.prefetch_focus)
        close_library_doors()
        self.lockdown = lock_down(spec.limits, [s.location for s in spec.sources])
        self.tripwire = Tripwire()

    def run(self, request: RunRequest) -> ExecutionResult:
        """Run one program (Python or SQL, as the representation says)."""
        if self.representation.language == "sql":
            return self._run_sql(request)
        try:
            namespace = self._namespace(request.focus)
        except Exception as error:  # a focus the representation cannot build
            return ExecutionResult(error=CodeError(type=type(error).__name__, message=str(error)))
        return run_program(request.code, namespace, self.spec.limits, self.tripwire)

    def _namespace(self, focus: FocusRef | None) -> dict[str, Any]:
        if focus not in self.namespaces:
            if len(self.namespaces) >= NAMESPACE_CACHE_SIZE:
                self.namespaces.pop(next(iter(self.namespaces)))
            plugin_focus = Focus(**focus.model_dump()) if focus else None
            raw = self.representation.namespace(self.workspace, plugin_focus)
            self.namespaces[focus] = {name: guard_value(v, name) for name, v in raw.items()}
        return self.namespaces[focus]

    def _run_query(self, query: str, timeout_seconds: float) -> Any:
        from plugins.sql_schema import run_query  # only SQL workers need the SQL plugin

        return run_query(
            self.workspace,
            query,
            timeout_seconds=timeout_seconds,
            max_rows=self.spec.limits.max_rows,
        )

    def _run_sql(self, request: RunRequest) -> ExecutionResult:
        started = time.perf_counter()
        try:
            answer = self._run_query(request.code, request.timeout_seconds)
        except Exception as error:  # a refused or failing query is data
            return ExecutionResult(
                error=CodeError(type=type(error).__name__, message=" ".join(str(error).split())),
                elapsed_ms=(time.perf_counter() - started) * 1000,
            )
        return ExecutionResult(
            result=[[render_value(value) for value in row] for row in answer.rows],
            columns=answer.columns,
            truncated=answer.truncated,
            elapsed_ms=(time.perf_counter() - started) * 1000,
        )


def _import_if_present(module: str) -> None:
    """Import now what programs may import later, while files can still be read."""
    try:
        importlib.import_module(module)
    except ImportError:
        return


def _silence_standard_streams() -> None:
    """Programs' output is captured in memory; the worker's own fds 0-2 go to
    /dev/null, so that RLIMIT_FSIZE=0 never meets an inherited log file."""
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    os.close(null)
