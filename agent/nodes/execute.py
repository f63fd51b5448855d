"""The execute node: the program runs in the sandboxed executor, nowhere else."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import AgentContext
from agent.events import context_of, emit
from agent.state import AgentState, CodeFailure
from agent.workspaces import workspace_of
from plugins.executor import execute as execute_in_sandbox

SHOWN_ROWS = 5


def execute(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Run the current program through `plugins.executor.execute` and record
    its rows or its error."""
    context = context_of(runtime)
    plan = state["plan"]
    current = state["current"]
    assert plan is not None and current is not None  # generate_code or the cache set them
    workspace = workspace_of(state["sources"], context.workspace)
    run = execute_in_sandbox(
        current.code,
        workspace,
        representation=plan.representation,
        focus=plan.focus(state["question"]),
        timeout_seconds=context.execution_timeout_seconds,
    )
    rows = run.result
    error = None
    if run.error is not None:
        error = CodeFailure(type=run.error.type, message=run.error.message, line=run.error.line)
    total_rows = getattr(run, "total_rows", None)
    executed = current.model_copy(
        update={
            "executed": True,
            "result": rows,
            "columns": list(run.columns or []),
            "total_rows": total_rows if total_rows is not None or rows is None else len(rows),
            "error": error,
        }
    )
    trace = emit(
        runtime,
        "execute",
        "execution",
        origin=current.origin,
        rows=executed.total_rows,
        columns=executed.columns,
        first_rows=(rows or [])[:SHOWN_ROWS],
        error=None if error is None else f"{error.type}: {error.message}",
        elapsed_ms=round(run.elapsed_ms, 1),
    )
    return {"current": executed, "trace": trace}
