"""The plan node: the routes (representations candidates are written in), the
KG focus, the schema each route shows, the program cache."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime
from pydantic import JsonValue

from agent.context import AgentContext
from agent.events import context_of, emit
from agent.planning import choose_routes, kg_focus, prompt_schema
from agent.prompts import code_instruction
from agent.state import AgentState, Attempt, Plan
from agent.workspaces import workspace_of
from memory import Demonstration, ProgramCacheRecord, default_store, serve_cached_program
from memory.fingerprints import schema_fingerprint
from memory.verification import workspace_kind
from plugins import Focus, Workspace
from plugins.executor import execute


def plan(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Choose the routes, focus a KG on the question's entities, render each
    route's schema (cut to the relevant BOXes when big), and look the
    question up in the program cache."""
    context = context_of(runtime)
    workspace = workspace_of(state["sources"], context.workspace)
    question = state["question"]
    requested = state.get("representation") or context.representation
    routes = choose_routes(
        workspace, requested, context.route_preference(), context.sql_row_threshold
    )
    hops = state.get("hops") or context.hops
    focus = kg_focus(workspace, question, state.get("entities") or (), hops)
    kind = workspace_kind(workspace)
    topic_entities = [] if focus is None else _topic_entities(workspace, focus)
    plans = []
    for representation, _ in routes:
        schema = prompt_schema(
            workspace,
            representation,
            focus,
            question,
            context.schema_linking_min_boxes,
            context.schema_linking_keep,
            context.example_value_count(),
            context.joined_views_in_use(),
            context.views_alone,
        )
        plans.append(
            Plan(
                representation=representation,
                kind=kind,
                schema_text=schema.shown_text,
                schema_fingerprint=schema_fingerprint(schema.full_text),
                focus_entities=None if focus is None else list(focus.entities),
                topic_entities=topic_entities,
                hops=hops,
                instruction=code_instruction(
                    representation, workspace, context.reply_format_in_use(representation)
                ),
                linked_boxes=schema.linked,
            )
        )
    trace = emit(
        runtime,
        "plan",
        "plan",
        representation=plans[0].representation,
        routes=[plan.representation for plan in plans],
        why=routes[0][1],
        kind=kind,
        topic_entities=topic_entities,
        linked_boxes=plans[0].linked_boxes,
        schema_characters=len(plans[0].schema_text),
    )
    chosen, cached = plans[0], None
    for route in plans:
        cached = _cached_attempt(question, route, context, workspace)
        if cached is not None:
            chosen = route
            trace += emit(runtime, "plan", "program_cache", code=cached.code)
            break
    return {
        "plan": chosen,
        "routes": plans,
        "chain": 0,
        "temperature": 0.0,
        "current": cached,
        "trace": trace,
    }


def route_after_plan(state: AgentState) -> Literal["execute", "retrieve_demonstrations"]:
    """A program from the cache runs at once; otherwise the first candidate's
    demonstrations come."""
    current = state.get("current")
    if current is not None and current.origin == "cache":
        return "execute"
    return "retrieve_demonstrations"


def _topic_entities(workspace: Workspace, focus: Focus) -> list[str]:
    from plugins.knowledge_graph.subgraph import workspace_topic_entities  # start-up speed

    return workspace_topic_entities(workspace, focus)


def _cached_attempt(
    question: str, decided: Plan, context: AgentContext, workspace: Workspace
) -> Attempt | None:
    """A stored program the cache serves for this question (docs/mcp.md,
    "Trust"): only one this machine's user vouched for, and only when it
    still returns the answer it recorded when run again here."""
    if not context.program_cache or context.direct_answer:
        return None

    def rerun(demonstration: Demonstration) -> list[list[JsonValue]] | None:
        run = execute(
            demonstration.code,
            workspace,
            representation=decided.representation,
            focus=decided.focus(question),
            timeout_seconds=context.execution_timeout_seconds,
        )
        return None if run.error is not None else run.result

    served = serve_cached_program(
        context.store or default_store(),
        question,
        decided.schema_fingerprint,
        decided.representation,
        rerun,
    )
    if served is None:
        return None
    demonstration = served.demonstration
    return Attempt(
        origin="cache",
        representation=decided.representation,
        reasoning=demonstration.reasoning,
        code=demonstration.code,
        program_cache=ProgramCacheRecord(id=demonstration.id, origin=demonstration.origin),
    )
