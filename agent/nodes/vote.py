"""The vote node: after each finished candidate program, answer with the
result most candidates agree on, or write another candidate
(`agent.voting`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from langgraph.runtime import Runtime

from agent.answer import Answer, AnswerError, Candidate, TraceEvent

if TYPE_CHECKING:
    from plugins.knowledge_graph.focus_report import GraphFocus
from agent.context import AgentContext
from agent.events import context_of, emit
from agent.not_in_data import not_in_data
from agent.planning import plan_boxes
from agent.state import AgentState, Plan
from agent.voting import Tally, sure, tally
from agent.workspaces import workspace_of
from plugins import Box, get_registry


def vote(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Tally the candidates. Stop when a program from the cache answered,
    when the first greedy program is sure and wins (`stop_when_sure`: then
    the data is never read),
    when `stop_votes` candidates agree on one result a program computed
    (readings alone do not end the vote: programs may still outvote them),
    when the candidates left could not change the winner, when the budget
    is spent or the LLM stopped answering; otherwise start the next
    candidate: each route's greedy program first, then samples at
    `sample_temperature`, route by route."""
    context = context_of(runtime)
    candidates = state.get("candidates") or []
    outcome = tally(candidates, state["question"])
    written = len([c for c in candidates if c.origin in ("greedy", "sample", "direct")])
    left = context.candidate_count() - written
    cached = bool(candidates) and candidates[-1].origin == "cache" and outcome.winner is not None
    first_sure = (
        context.stop_when_sure
        and written == 1
        and outcome.winner is not None
        and sure(outcome.winner, state["question"])
    )
    stop = (
        cached
        or first_sure
        or state.get("llm_error") is not None
        or left <= 0
        or (outcome.votes >= context.stop_votes and _computed(outcome))
        or (outcome.weight > 0 and outcome.weight - outcome.runner_up_weight > left)
    )
    trace = emit(
        runtime,
        "vote",
        "vote",
        candidates=len(candidates),
        votes=outcome.votes,
        agreement=outcome.agreement,
        sure=first_sure,
        decision="answer" if stop else "another candidate",
    )
    if not stop:
        routes = state.get("routes") or [state["plan"]]
        route, temperature = _next_candidate(routes, written, context.sample_temperature)
        return {
            "plan": route,
            "chain": written,
            "temperature": temperature,
            "chain_done": False,
            "trace": trace,
        }
    answer = _answer(state, candidates, outcome, runtime)
    return _finish(state, runtime, trace, answer)


def _computed(outcome: Tally) -> bool:
    """Whether the winning group holds a program, not only readings."""
    return outcome.winner is not None and outcome.winner.origin != "reading"


def route_after_vote(
    state: AgentState,
) -> Literal["read_data", "retrieve_demonstrations", "__end__"]:
    """End with the answer; else have the model read the data, the first
    time only (its readings come back to vote); else fetch the
    demonstrations of the next candidate's route."""
    if state.get("answer") is not None:
        return "__end__"
    return "retrieve_demonstrations" if state.get("data_read") else "read_data"


def _next_candidate(
    routes: list[Plan], written: int, sample_temperature: float
) -> tuple[Plan, float]:
    """The route and temperature of candidate number `written` (0 first):
    every route greedy once, then samples in route order."""
    if written < len(routes):
        return routes[written], 0.0
    return routes[(written - len(routes)) % len(routes)], sample_temperature


def _answer(
    state: AgentState,
    candidates: list[Candidate],
    outcome: Tally,
    runtime: Runtime[AgentContext],
) -> Answer:
    """The answer of the winning group (a soft one when readings won, unless
    every program failed on a name the data lacks); else the soft answer a
    candidate's code states (KG2Code: its last comment); else why no
    candidate answered."""
    plan = state["plan"]
    assert plan is not None
    attempts = sum(1 for attempt in state["attempts"] if attempt.origin != "cache")
    common = {
        "attempts": attempts,
        "candidates": candidates,
        "votes": outcome.votes,
        "agreement": outcome.agreement,
    }
    winner = outcome.winner
    if winner is not None and winner.origin == "reading":
        if not_in_data(candidates, _schema_boxes(state, runtime)) is None:
            return Answer(
                answer=winner.result or [],
                columns=winner.columns,
                reasoning=winner.reasoning,
                representation=winner.representation,
                soft=True,
                **common,
            )
        winner = None
    if winner is not None:
        cached = [attempt for attempt in state["attempts"] if attempt.origin == "cache"]
        return Answer(
            answer=winner.result or [],
            columns=winner.columns,
            reasoning=winner.reasoning,
            code=winner.code,
            representation=winner.representation,
            program_cache=cached[-1].program_cache if winner.origin == "cache" else None,
            chart=winner.chart,
            **common,
        )
    for candidate in reversed(candidates):
        soft = _soft_answer(candidate)
        if soft:
            return Answer(
                answer=soft,
                columns=["answer"],
                reasoning=candidate.reasoning,
                code=candidate.code,
                representation=candidate.representation,
                soft=True,
                **common,
            )
    last = next((c for c in reversed(candidates) if c.origin != "reading"), None)
    return Answer(
        reasoning=last.reasoning if last else "",
        code=last.code if last else "",
        representation=last.representation if last else plan.representation,
        error=_error(state, last, runtime),
        **common,
    )


def _soft_answer(candidate: Candidate) -> list[list[str]] | None:
    if not candidate.code:
        return None
    representation = get_registry().representations.get(candidate.representation)
    return representation.soft_answer(candidate.code) if representation else None


def _error(
    state: AgentState, last: Candidate | None, runtime: Runtime[AgentContext]
) -> AnswerError:
    llm_error = state.get("llm_error")
    if last is None and llm_error is not None:
        return llm_error
    missing = not_in_data(state.get("candidates") or [], _schema_boxes(state, runtime))
    if missing is not None:
        return missing
    if last is not None and last.error is not None:
        return last.error
    return AnswerError(type="EmptyResult", message="the code ran but returned no rows")


def _focus(state: AgentState, runtime: Runtime[AgentContext]) -> list[GraphFocus] | None:
    """What the question's entities were linked to in each KG (None without one)."""
    plan = state["plan"]
    assert plan is not None
    focus = plan.focus(state["question"])
    if focus is None:
        return None
    from plugins.knowledge_graph.focus_report import workspace_focus  # start-up speed

    return workspace_focus(workspace_of(state["sources"], context_of(runtime).workspace), focus)


def _schema_boxes(state: AgentState, runtime: Runtime[AgentContext]) -> list[Box]:
    """The BOXes (tables) and fields of the sources, where NotInData checks a name."""
    plan = state["plan"]
    assert plan is not None
    context = context_of(runtime)
    workspace = workspace_of(state["sources"], context.workspace)
    return plan_boxes(plan, state["question"], workspace, context.joined_views_in_use())


def _finish(
    state: AgentState, runtime: Runtime[AgentContext], trace: list[TraceEvent], answer: Answer
) -> dict[str, Any]:
    complete = answer.model_copy(
        update={
            "focus": _focus(state, runtime),
            "llm_calls": state["llm_calls"],
            "prompt_tokens": state["prompt_tokens"],
            "cached_prompt_tokens": state["cached_prompt_tokens"],
            "completion_tokens": state["completion_tokens"],
            "trace": [*state["trace"], *trace],
        }
    )
    return {"answer": complete, "trace": trace}
