"""The shapes that cross the executor's boundaries: requests, results, limits."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

Cell = bool | int | float | str | None
"""One value of a result: a JSON scalar (see docs/executor.md for how values map)."""


class CodeError(BaseModel):
    """Why a program failed: an exception type name (an identifier), a one-line
    message and the line of the user's code it happened on (None when no line applies)."""

    model_config = ConfigDict(frozen=True)

    type: str
    message: str
    line: int | None = None


class ExecutionResult(BaseModel):
    """What running one program produced.

    `result` holds rows of JSON values and `columns` their names (both set
    together; None and [] when the program failed, and `error` is then set).
    A Series or DataFrame with a meaningful index gets its index level(s) as
    leading column(s). `total_rows` counts the rows before any cap;
    `truncated` says that rows, cells or stdout were cut at the executor's caps.
    """

    result: list[list[Cell]] | None = None
    columns: list[str] = Field(default_factory=list)
    total_rows: int | None = None
    truncated: bool = False
    error: CodeError | None = None
    stdout: str = ""
    elapsed_ms: float = 0.0
    chart: str | None = None
    """The figure the program drew last (matplotlib, Agg), as a base64 PNG of
    at most `Limits.max_chart_bytes`; None when it drew none."""


class Limits(BaseModel):
    """Caps applied to every run, in the child that runs it and again in the caller."""

    model_config = ConfigDict(frozen=True)

    memory_mb: int = Field(default=2048, description="address space a run may add to the data")
    cpu_seconds: int = Field(
        default=300, description="CPU time of one run (RLIMIT_CPU, behind the caller's deadline)"
    )
    max_rows: int = Field(default=10_000, description="rows of a result kept (default per call)")
    max_cells: int = Field(default=200_000, description="cells of a result kept")
    max_cell_chars: int = Field(default=10_000, description="characters of one cell kept")
    max_result_chars: int = Field(default=4_000_000, description="characters of all cells kept")
    max_stdout_chars: int = Field(default=20_000, description="characters of printed output kept")
    max_message_chars: int = Field(default=1_000, description="characters of an error message")
    max_type_chars: int = Field(default=100, description="characters of an error type name")
    max_chart_bytes: int = Field(default=2_000_000, description="bytes of a chart's PNG")
    max_chart_pixels: int = Field(default=4_000_000, description="pixels of a chart drawn")

    @property
    def max_result_bytes(self) -> int:
        """The most a child may write on its result channel: every kept character
        at its longest JSON form (a 6-byte escape), plus room for the separators
        of cells and column names (each counts as a cell) and the envelope.
        A chart adds its PNG in base64 (4 characters per 3 bytes).
        The caller kills a child that writes more."""
        characters = (
            self.max_result_chars
            + self.max_stdout_chars
            + self.max_message_chars
            + self.max_type_chars
        )
        return 6 * characters + 16 * self.max_cells + 4 * self.max_chart_bytes // 3 + 65_536


class SourceRef(BaseModel):
    """How a template re-opens one source of the workspace itself."""

    model_config = ConfigDict(frozen=True)

    location: str
    plugin: str
    name: str
    version: str = ""
    """The file's modification time and size: a changed file gets a new template."""


class FocusRef(BaseModel):
    """A `plugins.Focus` as it travels to a template."""

    model_config = ConfigDict(frozen=True)

    question: str | None = None
    entities: tuple[str, ...] = ()
    hops: int = 2


class WorkerSpec(BaseModel):
    """Everything a template process needs to build its data: the sources, the
    representation whose namespace programs see, and the limits."""

    model_config = ConfigDict(frozen=True)

    sources: tuple[SourceRef, ...]
    representation: str
    limits: Limits = Limits()


class RunRequest(BaseModel):
    """One program to run in a fresh child of a template."""

    code: str
    focus: FocusRef | None = None
    timeout_seconds: float = 10.0
    max_rows: int = 10_000
