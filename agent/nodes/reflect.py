"""The reflect node: judge an attempt (execution guidance), then send its
feedback for a corrected program, or finish the candidate it belongs to."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.answer import AnswerError, Candidate
from agent.context import AgentContext
from agent.events import context_of, emit
from agent.feedback import judge
from agent.nodes.repair import sql_dialect
from agent.planning import shown_vocabulary
from agent.repair.literals import matches_nothing, unmatched_note
from agent.state import AgentState, Attempt
from agent.workspaces import workspace_of
from agent.yes_no import as_yes_or_no
from plugins import get_registry


def reflect(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Judge the current attempt and decide what comes next: a retry with
    feedback while the candidate has attempts left, else the finished
    candidate goes to the vote. A failed cached program hands over to the LLM."""
    context = context_of(runtime)
    plan = state["plan"]
    current = state["current"]
    assert plan is not None and current is not None
    workspace = workspace_of(state["sources"], context.workspace)
    representation = get_registry().representation(plan.representation)
    vocabulary = shown_vocabulary(
        representation, workspace, plan.focus(state["question"]), context.joined_views_in_use()
    )
    verdict = judge(
        current,
        state["question"],
        vocabulary.boxes,
        vocabulary.names,
        sources=workspace.sources,
    )
    feedback = verdict.feedback
    if current.origin == "llm" and current.error is None and matches_nothing(current.result):
        language = representation.language
        dialect = sql_dialect(workspace, language)
        note = unmatched_note(current.code, language, vocabulary.boxes, dialect)
        feedback = "\n".join(text for text in (feedback, note) if text) or None
    repeated = feedback is not None and _repeated(current, state["attempts"])
    if repeated:
        feedback = f"You sent the same program as an earlier attempt. {feedback}"
    judged = current.model_copy(update={"feedback": feedback})

    if current.origin == "cache" and feedback is not None:
        trace = emit(runtime, "reflect", "cache_failed", feedback=feedback)
        return {"attempts": [judged], "current": None, "chain_done": False, "trace": trace}
    # With several candidates a program that ran (even to no rows) is a
    # vote, not a reason to rewrite it: other candidates can outvote it.
    voting = context.candidate_count() > 1
    chain = [a for a in state["attempts"] if a.chain == judged.chain and a.origin == "llm"]
    chain.append(judged)
    retry = (
        feedback is not None
        and not (verdict.has_rows and current.origin == "direct")
        and not (voting and current.error is None and current.problem is None)
        and context.execution_guidance
        and current.origin == "llm"
        and len(chain) < context.attempt_count()
    )
    if retry:
        trace = emit(runtime, "reflect", "feedback", attempt=len(chain), feedback=feedback)
        update: dict[str, Any] = {"attempts": [judged], "current": None, "chain_done": False}
        if repeated and state.get("temperature", 0.0) <= 0:
            # greedy decoding would send it again: sample the rest of this candidate
            update["temperature"] = context.sample_temperature
        return {**update, "trace": trace}
    candidate = _candidate(judged, chain, plan.representation, state.get("temperature", 0.0))
    truth = as_yes_or_no(state["question"], candidate.columns, candidate.result or [])
    if truth is not None:
        candidate = candidate.model_copy(update={"result": truth})
    trace = emit(
        runtime,
        "reflect",
        "candidate",
        candidate=judged.chain + 1,
        representation=candidate.representation,
        rows=len(candidate.result or []),
        flagged=candidate.flagged,
        error=None if candidate.error is None else candidate.error.message,
    )
    return {
        "attempts": [judged],
        "current": None,
        "candidates": [candidate],
        "chain_done": True,
        "trace": trace,
    }


def route_after_reflect(
    state: AgentState,
) -> Literal["generate_code", "retrieve_demonstrations", "vote"]:
    """A finished candidate goes to the vote; after a failed cached program,
    demonstrations are fetched; otherwise a corrected program is written."""
    if state.get("chain_done"):
        return "vote"
    if "demonstrations" not in state:
        return "retrieve_demonstrations"
    return "generate_code"


def _repeated(current: Attempt, attempts: list[Attempt]) -> bool:
    """Whether an earlier attempt of the same candidate sent this very program."""
    return any(
        attempt.chain == current.chain and attempt.code == current.code and attempt.code
        for attempt in attempts
    )


def _candidate(
    judged: Attempt, chain: list[Attempt], representation: str, temperature: float
) -> Candidate:
    """The candidate a finished chain of attempts gives: its last attempt
    with rows, else its last attempt."""
    best = next((attempt for attempt in reversed(chain) if attempt.result), judged)
    if judged.origin in ("cache", "direct"):
        origin = judged.origin
    else:
        origin = "greedy" if temperature <= 0 else "sample"
    return Candidate(
        representation=best.representation or representation,
        code=best.code,
        origin=origin,
        result=best.result if best.executed or best.origin == "direct" else None,
        columns=best.columns,
        error=_error_of(best),
        flagged=best.feedback is not None,
        attempts=len(chain),
        reasoning=best.reasoning,
        chart=best.chart,
    )


def _error_of(attempt: Attempt) -> AnswerError | None:
    if attempt.error is not None:
        return AnswerError(type=attempt.error.type, message=attempt.error.message)
    if attempt.problem is not None:
        return AnswerError(type="UnparsableReply", message=attempt.problem)
    return None
