"""The reflect node: accept the result, send feedback for another attempt, or
end with the best answer there is (hard, soft, or a clear failure)."""

from __future__ import annotations

from typing import Any, Literal

from langgraph.runtime import Runtime

from agent.answer import Answer, AnswerError, TraceEvent
from agent.context import AgentContext
from agent.events import context_of, emit
from agent.feedback import judge
from agent.state import AgentState, Attempt, Plan
from agent.workspaces import workspace_of
from plugins import get_registry


def reflect(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Judge the current attempt (execution guidance) and decide what comes next."""
    context = context_of(runtime)
    plan = state["plan"]
    current = state["current"]
    assert plan is not None and current is not None
    workspace = workspace_of(state["sources"], context.workspace)
    representation = get_registry().representation(plan.representation)
    vocabulary = representation.vocabulary(workspace, plan.focus(state["question"]))
    verdict = judge(current, state["question"], vocabulary.boxes, vocabulary.names)
    judged = current.model_copy(update={"feedback": verdict.feedback})
    history = [*state["attempts"], judged]
    llm_attempts = sum(1 for attempt in history if attempt.origin != "cache")

    if verdict.feedback is None or (current.origin == "direct" and verdict.has_rows):
        trace = emit(runtime, "reflect", "answer", origin=current.origin)
        return _finish(state, history, trace, _hard_answer(judged, plan, llm_attempts))
    if current.origin == "cache":
        trace = emit(runtime, "reflect", "cache_failed", feedback=verdict.feedback)
        return {"attempts": [judged], "current": None, "trace": trace}
    retry = (
        context.execution_guidance
        and current.origin == "llm"
        and llm_attempts < context.max_attempts
    )
    if retry:
        trace = emit(
            runtime, "reflect", "feedback", attempt=llm_attempts, feedback=verdict.feedback
        )
        return {"attempts": [judged], "current": None, "trace": trace}
    answer = _final_answer(history, plan, llm_attempts)
    trace = emit(
        runtime,
        "reflect",
        "answer" if answer.error is None else "failure",
        soft=answer.soft,
        error=None if answer.error is None else answer.error.message,
    )
    return _finish(state, history, trace, answer)


def route_after_reflect(
    state: AgentState,
) -> Literal["generate_code", "retrieve_demonstrations", "__end__"]:
    """End with an answer; after a failed cached program, fetch demonstrations;
    otherwise write another program."""
    if state.get("answer") is not None:
        return "__end__"
    if "demonstrations" not in state:
        return "retrieve_demonstrations"
    return "generate_code"


def _finish(
    state: AgentState, history: list[Attempt], trace: list[TraceEvent], answer: Answer
) -> dict[str, Any]:
    complete = answer.model_copy(
        update={
            "llm_calls": state["llm_calls"],
            "prompt_tokens": state["prompt_tokens"],
            "completion_tokens": state["completion_tokens"],
            "trace": [*state["trace"], *trace],
        }
    )
    return {"attempts": history[len(state["attempts"]) :], "answer": complete, "trace": trace}


def _hard_answer(attempt: Attempt, plan: Plan, attempts: int) -> Answer:
    return Answer(
        answer=attempt.result or [],
        columns=attempt.columns,
        reasoning=attempt.reasoning,
        code=attempt.code,
        representation=plan.representation,
        attempts=attempts,
        program_cache=attempt.program_cache,
    )


def _final_answer(history: list[Attempt], plan: Plan, attempts: int) -> Answer:
    """The last result with rows; else the soft answer the representation reads
    in the code (KG2Code: its last comment); else the last error."""
    for attempt in reversed(history):
        if attempt.result:
            return _hard_answer(attempt, plan, attempts)
    representation = get_registry().representation(plan.representation)
    for attempt in reversed(history):
        soft = representation.soft_answer(attempt.code) if attempt.code else None
        if soft:
            return Answer(
                answer=soft,
                columns=["answer"],
                reasoning=attempt.reasoning,
                code=attempt.code,
                representation=plan.representation,
                attempts=attempts,
                soft=True,
            )
    last = history[-1]
    return Answer(
        reasoning=last.reasoning,
        code=last.code,
        representation=plan.representation,
        attempts=attempts,
        error=_error_of(last),
    )


def _error_of(attempt: Attempt) -> AnswerError:
    if attempt.error is not None:
        return AnswerError(type=attempt.error.type, message=attempt.error.message)
    if attempt.problem is not None:
        return AnswerError(type="UnparsableReply", message=attempt.problem)
    return AnswerError(type="EmptyResult", message="the code ran but returned no rows")
