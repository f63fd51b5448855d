"""`execute`: the one way Pandora runs generated code, on a process-wide pool."""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar

from plugins.executor.models import ExecutionResult
from plugins.executor.pool import ExecutorPool
from plugins.model import Focus
from plugins.workspace import Workspace

_lock = threading.Lock()
_pool: ExecutorPool | None = None
_admission: ContextVar[Callable[[], AbstractContextManager[object]] | None] = ContextVar(
    "executor_admission", default=None
)


def default_pool() -> ExecutorPool:
    """The pool shared by this process, created on first use, shut down at exit."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ExecutorPool()
            atexit.register(_pool.shutdown)
        return _pool


def execute(
    code: str,
    workspace: Workspace,
    representation: str = "pandas",
    focus: Focus | None = None,
    timeout_seconds: float = 10.0,
    max_rows: int | None = None,
) -> ExecutionResult:
    """Run `code` (Python or SQL, as `representation` says) on `workspace` in
    a fresh sandboxed process, keeping at most `max_rows` rows (default 10,000);
    the program's failures come back in `result.error`."""
    admission = _admission.get() or nullcontext
    with admission():
        return default_pool().execute(
            code, workspace, representation, focus, timeout_seconds, max_rows
        )


@contextmanager
def admitted_by(admission: Callable[[], AbstractContextManager[object]]) -> Iterator[None]:
    """Run every `execute` of this context (and of the contexts copied from it,
    as threads started by anyio or LangGraph are) inside `admission()`, e.g. a
    server's execution slot, held only while the program runs."""
    token = _admission.set(admission)
    try:
        yield
    finally:
        _admission.reset(token)
