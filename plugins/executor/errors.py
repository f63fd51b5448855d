"""Errors of the executor itself (not of the programs it runs).

A program's own failure is data (`ExecutionResult.error`); these are raised
only when the executor cannot do its job, such as a worker that cannot open the
workspace's sources.
"""

from plugins.errors import PandoraError


class ExecutorError(PandoraError):
    """The executor could not run a program at all."""


class WorkerStartError(ExecutorError):
    """A worker process could not load the workspace or lock itself down."""


class SandboxViolation(Exception):
    """Raised inside a worker when a program reaches for something closed.

    Its type name is reported to the user as the error type.
    """
