"""The retrieve_demonstrations node: K verified demonstrations from the memory."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import AgentContext
from agent.demonstration_fit import fitting
from agent.events import context_of, emit
from agent.state import AgentState, ShownDemonstration
from agent.workspaces import workspace_of
from memory import retrieve_demonstrations as retrieve_from_memory
from plugins import get_registry

OVERFETCH = 4
"""Demonstrations fetched per one shown, so that K remain after dropping
those that do not fit the schema."""


def retrieve_demonstrations(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """The K demonstrations most similar to the question, written in the
    chosen representation, that read no more tables than its schema has
    (across tasks by default; none when retrieval is `none`, K is 0, or the
    answer is asked for directly)."""
    context = context_of(runtime)
    plan = state["plan"]
    assert plan is not None  # plan always runs first
    shown: list[ShownDemonstration] = []
    k = context.demonstration_count()
    if context.retrieval != "none" and k > 0 and not context.direct_answer:
        scored = retrieve_from_memory(
            state["question"],
            k * OVERFETCH,
            kind=plan.kind,
            mode=context.retrieval,
            representation=plan.representation,
            store=context.store,
        )
        workspace = workspace_of(state["sources"], context.workspace)
        vocabulary = (
            get_registry()
            .representation(plan.representation)
            .vocabulary(workspace, plan.focus(state["question"]))
        )
        shown = fitting([ShownDemonstration.of(item) for item in scored], len(vocabulary.boxes), k)
    trace = emit(
        runtime,
        "retrieve_demonstrations",
        "demonstrations",
        mode=context.retrieval,
        questions=[demonstration.question for demonstration in shown],
    )
    return {"demonstrations": shown, "trace": trace}
