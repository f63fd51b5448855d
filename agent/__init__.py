"""The agent: a LangGraph state machine that answers a question by having an
LLM write code (pandas, NetworkX or SQL) that the sandboxed executor runs.

    from agent import ask
    answer = ask("Which artist has the most albums?", ["examples/music.sqlite"])

`build_graph()` returns the compiled graph, to run alone or as a subgraph;
`AgentContext` configures a run (K, L, representation, ablations); the
Answer is DESIGN.md's. See docs/agent.md.

The names below are imported on first use, so that `import agent.answer`
(the MCP server's start does) does not pay for LangGraph.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent.answer import Answer, AnswerError, TraceEvent
    from agent.api import ask
    from agent.context import AgentContext
    from agent.graph import build_graph
    from agent.llm import LLMNotConfiguredError, configured_chat_model
    from agent.prompts import reasoning_messages

MODULE_OF_NAME = {
    "Answer": "agent.answer",
    "AnswerError": "agent.answer",
    "TraceEvent": "agent.answer",
    "ask": "agent.api",
    "AgentContext": "agent.context",
    "build_graph": "agent.graph",
    "LLMNotConfiguredError": "agent.llm",
    "configured_chat_model": "agent.llm",
    "reasoning_messages": "agent.prompts",
}

__all__ = [
    "AgentContext",
    "Answer",
    "AnswerError",
    "LLMNotConfiguredError",
    "TraceEvent",
    "ask",
    "build_graph",
    "configured_chat_model",
    "reasoning_messages",
]


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is used."""
    if name not in MODULE_OF_NAME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(MODULE_OF_NAME[name]), name)
