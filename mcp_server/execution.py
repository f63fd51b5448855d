"""Running a client's program (pandas, NetworkX or SQL) through the executor.

Code and SQL sent by a client were written by its LLM, maybe by an attacker:
they only ever run through `plugins.executor.execute`, in a sandboxed worker,
and at most `max_concurrent_runs` at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import anyio

from mcp_server.caps import cap_rows, cap_text
from mcp_server.models import RunResult
from mcp_server.schemas import check_shows
from mcp_server.state import ServerState
from plugins.errors import PandoraError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from plugins import Focus, Source, Workspace
    from plugins.executor import ExecutionResult


class ProgramFailed(PandoraError):
    """The program ran and raised, timed out or broke a sandbox rule."""


async def run_program(
    state: ServerState,
    code: str,
    workspace: Workspace,
    representation: str,
    focus: Focus | None = None,
    on_chart: Callable[[str], None] | None = None,
) -> RunResult:
    """Run `code` on `workspace` and return its capped rows; a failing program
    raises `ProgramFailed` carrying the interpreter's error, its line and hints.
    `on_chart` receives the figure the program drew (a base64 PNG), if any."""
    check_shows(workspace, representation)
    from plugins.executor import execute

    settings = state.settings
    run = functools.partial(
        execute,
        code,
        workspace,
        representation,
        focus,
        settings.timeout_seconds,
        max_rows=settings.max_rows,
    )
    async with state.gate.slot():
        outcome = await anyio.to_thread.run_sync(run)
    if outcome.error is not None:
        inside = {source.name for source in workspace.sources}
        outside = [s for s in state.catalog.ready_sources() if s.name not in inside]
        explain = functools.partial(
            failure_message,
            outcome,
            code,
            workspace,
            representation,
            focus,
            settings.max_chars,
            other_sources=outside,
        )
        raise ProgramFailed(await anyio.to_thread.run_sync(explain))
    if on_chart is not None and outcome.chart is not None:
        on_chart(outcome.chart)
    rows = outcome.result or []
    capped = cap_rows(rows, settings.max_rows, settings.max_chars)
    return RunResult(
        columns=outcome.columns or [],
        rows=capped.rows,
        total_rows=outcome.total_rows if outcome.total_rows is not None else len(rows),
        truncated=outcome.truncated or capped.truncated,
        stdout=cap_text(outcome.stdout, settings.max_chars // 4),
        elapsed_ms=outcome.elapsed_ms,
    )


def failure_message(
    outcome: ExecutionResult,
    code: str,
    workspace: Workspace,
    representation: str,
    focus: Focus | None,
    max_chars: int,
    other_sources: Sequence[Source] = (),
) -> str:
    """What the client's LLM needs to fix the program: the agent's execution
    guidance (the interpreter's error and line, then "did you mean" the
    nearest BOXes, fields, values or graph nodes of the representation's
    vocabulary, and the other sources a missing table may be), then what the
    program printed, all within `max_chars`."""
    from agent.feedback import judge
    from agent.feedback_budget import FeedbackLimits
    from agent.state import Attempt, CodeFailure
    from plugins import get_registry

    error = outcome.error
    assert error is not None
    attempt = Attempt(
        code=code,
        executed=True,
        error=CodeFailure(type=error.type, message=error.message, line=error.line),
    )
    vocabulary = get_registry().representation(representation).vocabulary(workspace, focus)
    verdict = judge(
        attempt,
        "",
        vocabulary.boxes,
        vocabulary.names,
        limits=FeedbackLimits(max_chars=max_chars * 3 // 4),  # stdout may take the last quarter
        sources=workspace.sources,
        other_sources=other_sources,
    )
    message = verdict.feedback or f"{error.type}: {error.message}"
    if outcome.stdout:
        message += "\nPrinted before failing:\n" + cap_text(outcome.stdout, max_chars // 4)
    return message
