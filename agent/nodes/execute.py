"""The execute node: the program runs in the sandboxed executor, nowhere else."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.context import AgentContext
from agent.events import context_of, emit
from agent.repair.literals import matches_nothing
from agent.repair.sql_ties import asks_for_several
from agent.state import AgentState, Attempt, CodeFailure
from agent.workspaces import workspace_of
from plugins import get_registry
from plugins.executor import execute as execute_in_sandbox

SHOWN_ROWS = 5


def execute(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Run the current program through `plugins.executor.execute` and record
    its rows or its error. A program the question already ran (a sample
    identical to an earlier candidate, a correction that changes nothing)
    is not run again: its earlier outcome is copied."""
    context = context_of(runtime)
    plan = state["plan"]
    current = state["current"]
    assert plan is not None and current is not None  # generate_code or the cache set them
    earlier = _earlier_run(state, current.code, plan.representation)
    if earlier is not None:
        copied = current.model_copy(
            update={
                field: getattr(earlier, field)
                for field in ("executed", "result", "columns", "total_rows", "chart", "error")
            }
        )
        trace = emit(runtime, "execute", "same_program", origin=current.origin)
        return {"current": copied, "trace": trace}
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
            "chart": getattr(run, "chart", None),
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


def route_after_execute(state: AgentState) -> Literal["repair", "reflect"]:
    """A program that failed, or ran to no rows or a lone 0 (a text filter
    may match nothing), goes to repair, and so does a SQL program whose
    question asks for several answers ("year(s)": its `LIMIT 1` may drop
    tied rows), when repair has not given up on the program; everything
    else goes to reflect."""
    current = state["current"]
    assert current is not None
    if current.origin != "llm" or current.repair_tried:
        return "reflect"
    failed = current.error is not None or matches_nothing(current.result)
    if failed or (asks_for_several(state["question"]) and _writes_sql(state)):
        return "repair"
    return "reflect"


def _writes_sql(state: AgentState) -> bool:
    """Whether the current route's programs are SQL."""
    plan = state["plan"]
    assert plan is not None
    return get_registry().representation(plan.representation).language == "sql"


def _earlier_run(state: AgentState, code: str, representation: str) -> Attempt | None:
    """The executed attempt of this question with the same program, if any."""
    for attempt in state["attempts"]:
        if attempt.executed and attempt.code == code and attempt.representation == representation:
            return attempt
    return None
