"""The repair node: a program that failed on an unknown name is fixed by
renaming, and one that ran to nothing because a text literal is no value of
the data gets the value instead, or (SQL) because a join compares a foreign
key with the wrong column gets the key's target; a SQL program whose
question asks for "year(s)" and that keeps one row by `ORDER BY ... LIMIT 1`
returns every row tied with the first instead. All with no LLM call; the
program then runs again (`agent.repair`, `agent.repair.literals`,
`agent.repair.sql_key_joins`, `agent.repair.sql_ties`). A tie rewrite that
fails, runs to nothing or loses the first row gives way to the program as
it ran before it.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.context import AgentContext
from agent.events import context_of, emit
from agent.planning import shown_vocabulary
from agent.repair import repair_program
from agent.repair.literals import matches_nothing, repair_literals
from agent.repair.sql_key_joins import repair_key_joins
from agent.repair.sql_ties import keep_ties
from agent.state import AgentState, Attempt
from agent.workspaces import workspace_of
from plugins import get_registry

MAX_REPAIRS = 3
"""Repairs of one program at most (each failure names one name)."""


def repair(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Replace the name the current program's error complains about by the
    nearest one of the schema in scope, or (a program that ran to nothing)
    a text literal that is no value by the one value equal to it but for
    case, or else a join column by its foreign key's target, or (a SQL
    program that ran to rows) its `LIMIT 1` by every row tied with the
    first when the question asks for several, when that is unambiguous;
    otherwise pass it on to reflect. A tie rewrite that ran is judged
    instead (`_after_ties`)."""
    context = context_of(runtime)
    plan, current = state["plan"], state["current"]
    assert plan is not None and current is not None
    if current.before_ties is not None:
        return _after_ties(current, current.before_ties, runtime)
    repaired, before_ties = None, None
    if context.repair and len(current.repairs) < MAX_REPAIRS:
        workspace = workspace_of(state["sources"], context.workspace)
        representation = get_registry().representation(plan.representation)
        focus = plan.focus(state["question"])
        joined_views = context.joined_views_in_use()
        boxes = shown_vocabulary(representation, workspace, focus, joined_views).boxes
        language = representation.language
        dialect = sql_dialect(workspace, language)
        if current.error is not None:
            error = current.error
            repaired = repair_program(
                current.code, language, error.type, error.message, boxes, dialect
            )
        elif matches_nothing(current.result):
            repaired = repair_literals(current.code, language, boxes, dialect)
            if repaired is None and language == "sql":
                repaired = repair_key_joins(current.code, boxes, dialect)
        elif language == "sql":
            repaired = keep_ties(current.code, state["question"], dialect)
            before_ties = current
    if repaired is None or repaired.code == current.code:
        given_up = current.model_copy(update={"repair_tried": True})
        return {"current": given_up}
    trace = emit(runtime, "repair", "repair", changes=list(repaired.changes), code=repaired.code)
    fixed = current.model_copy(
        update={
            "code": repaired.code,
            "repairs": [*current.repairs, *repaired.changes],
            "before_ties": before_ties,
            "executed": False,
            "result": None,
            "columns": [],
            "total_rows": None,
            "error": None,
        }
    )
    return {"current": fixed, "trace": trace}


def _after_ties(
    rewritten: Attempt, original: Attempt, runtime: Runtime[AgentContext]
) -> dict[str, Any]:
    """The tie rewrite as it ran, when it ran to rows holding the original's
    first row; else the original program and its rows, so a rewrite that
    fails (or times out) never costs the result it was meant to widen.
    Either way repair is done with the program."""
    first_row = original.result[0] if original.result else None
    kept = (
        rewritten.error is None and first_row is not None and first_row in (rewritten.result or [])
    )
    if kept:
        return {"current": rewritten.model_copy(update={"repair_tried": True, "before_ties": None})}
    failure = rewritten.error
    trace = emit(
        runtime,
        "repair",
        "ties_undone",
        code=original.code,
        error=None if failure is None else f"{failure.type}: {failure.message}",
        rows=rewritten.total_rows,
    )
    return {"current": original.model_copy(update={"repair_tried": True}), "trace": trace}


def route_after_repair(state: AgentState) -> Literal["execute", "reflect"]:
    """A repaired program runs again; an unrepaired one goes to reflect."""
    current = state["current"]
    assert current is not None
    return "reflect" if current.repair_tried else "execute"


def sql_dialect(workspace: Any, language: str) -> str:
    """sqlglot's name of the dialect SQL runs in on `workspace` ("" for other languages)."""
    if language != "sql":
        return ""
    from plugins.sql_schema.targets import workspace_sql_target

    return workspace_sql_target(workspace).dialect
