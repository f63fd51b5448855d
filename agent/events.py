"""Node events: recorded in the trace, streamed to LangGraph's `custom`
stream, and passed to the caller's `on_event` as they happen."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.answer import TraceEvent
from agent.context import AgentContext


def context_of(runtime: Runtime[Any]) -> AgentContext:
    """The run's AgentContext; the defaults when the graph runs without one
    (LangGraph Studio, or a parent graph with a context of its own)."""
    context = getattr(runtime, "context", None)
    return context if isinstance(context, AgentContext) else AgentContext()


def emit(runtime: Runtime[Any], node: str, event: str, **detail: Any) -> list[TraceEvent]:
    """Publish one event now and return it as a trace update (`{"trace": ...}`)."""
    trace_event = TraceEvent(node=node, event=event, detail=detail)
    writer = getattr(runtime, "stream_writer", None)
    if writer is not None:
        writer(trace_event.model_dump())
    callback = context_of(runtime).on_event
    if callback is not None:
        callback(trace_event)
    return [trace_event]
