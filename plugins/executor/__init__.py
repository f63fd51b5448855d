"""The executor: every program Pandora runs (pandas, NetworkX, SQL) runs here,
each in a fresh process forked from a template that holds the workspace and
never runs untrusted code; the process locks itself down, runs one program
and exits. See docs/executor.md.

`execute(code, workspace, representation)` uses a default pool shared by the
process and shut down at exit; `executor_diagnostics()` says which isolation
layers are active.
"""

from __future__ import annotations

import importlib
from typing import Any

# Public names and the module that defines each, imported on first use: a
# command that only needs `plugins.executor.results` does not pay for the pool.
_EXPORTS = {
    "CodeError": "plugins.executor.models",
    "ExecutionResult": "plugins.executor.models",
    "ExecutorDiagnostics": "plugins.executor.diagnostics",
    "ExecutorError": "plugins.executor.errors",
    "ExecutorPool": "plugins.executor.pool",
    "Limits": "plugins.executor.models",
    "LockdownReport": "plugins.executor.lockdown",
    "WorkerStartError": "plugins.executor.errors",
    "admitted_by": "plugins.executor.api",
    "default_pool": "plugins.executor.api",
    "execute": "plugins.executor.api",
    "executor_diagnostics": "plugins.executor.diagnostics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is used."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
