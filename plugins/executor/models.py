"""The shapes that cross the executor's boundaries: requests, results, limits."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CodeError(BaseModel):
    """Why a program failed: an exception type name, a one-line message and the
    line of the user's code it happened on (None when no line applies)."""

    model_config = ConfigDict(frozen=True)

    type: str
    message: str
    line: int | None = None


class ExecutionResult(BaseModel):
    """What running one program produced.

    `result` holds rows of strings (see docs/executor.md for how values render)
    and is None when the program failed; `error` is then set. `columns` names
    the result's columns where they are known (SQL). `truncated` says
    that rows, cells or stdout were cut at the executor's caps.
    """

    result: list[list[str]] | None = None
    columns: list[str] | None = None
    error: CodeError | None = None
    stdout: str = ""
    elapsed_ms: float = 0.0
    truncated: bool = False


class Limits(BaseModel):
    """Caps applied to every run in a worker."""

    model_config = ConfigDict(frozen=True)

    memory_mb: int = Field(default=2048, description="address space a worker may add after loading")
    max_rows: int = Field(default=10_000, description="rows of a result kept")
    max_cell_chars: int = Field(default=10_000, description="characters of one cell kept")
    max_result_chars: int = Field(default=4_000_000, description="characters of all cells kept")
    max_stdout_chars: int = Field(default=20_000, description="characters of printed output kept")
    cpu_seconds_per_worker: int = Field(
        default=3600, description="CPU a worker may use over its whole life (RLIMIT_CPU hard)"
    )


class SourceRef(BaseModel):
    """How a worker re-opens one source of the workspace itself."""

    model_config = ConfigDict(frozen=True)

    location: str
    plugin: str
    name: str
    version: str = ""
    """The file's modification time and size: a changed file gets a new worker."""


class FocusRef(BaseModel):
    """A `plugins.Focus` as it travels to a worker."""

    model_config = ConfigDict(frozen=True)

    question: str | None = None
    entities: tuple[str, ...] = ()
    hops: int = 2


class WorkerSpec(BaseModel):
    """Everything a worker process needs to build its data: the sources, the
    representation whose namespace programs see, and the limits.

    `prefetch_focus` is built before the worker locks itself down: a KG behind
    an endpoint can only be queried while sockets are still open.
    """

    model_config = ConfigDict(frozen=True)

    sources: tuple[SourceRef, ...]
    representation: str
    limits: Limits = Limits()
    prefetch_focus: FocusRef | None = None


class RunRequest(BaseModel):
    """One program to run in a worker."""

    code: str
    focus: FocusRef | None = None
    timeout_seconds: float = 10.0
