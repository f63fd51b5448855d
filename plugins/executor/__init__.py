"""The executor: every program Pandora runs (pandas, NetworkX, SQL) runs here,
each in a fresh process forked from a template that holds the workspace and
never runs untrusted code; the process locks itself down, runs one program
and exits. See docs/executor.md.

`execute(code, workspace, representation)` uses a default pool shared by the
process and shut down at exit; `executor_diagnostics()` says which isolation
layers are active.
"""

from plugins.executor.api import default_pool, execute
from plugins.executor.diagnostics import ExecutorDiagnostics, executor_diagnostics
from plugins.executor.errors import ExecutorError, WorkerStartError
from plugins.executor.lockdown import LockdownReport
from plugins.executor.models import CodeError, ExecutionResult, Limits
from plugins.executor.pool import ExecutorPool

__all__ = [
    "CodeError",
    "ExecutionResult",
    "ExecutorDiagnostics",
    "ExecutorError",
    "ExecutorPool",
    "Limits",
    "LockdownReport",
    "WorkerStartError",
    "default_pool",
    "execute",
    "executor_diagnostics",
]
