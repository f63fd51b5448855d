"""The agent: a LangGraph state machine that answers a question by having an
LLM write code (pandas, NetworkX or SQL) that the sandboxed executor runs.

    from agent import ask
    answer = ask("Which artist has the most albums?", ["examples/music.sqlite"])

`build_graph()` returns the compiled graph, to run alone or as a subgraph;
`AgentContext` configures a run (K, L, representation, ablations); the
Answer is DESIGN.md's. See docs/agent.md.
"""

from agent.answer import Answer, AnswerError, TraceEvent
from agent.api import ask
from agent.context import AgentContext
from agent.graph import build_graph
from agent.llm import LLMNotConfiguredError, configured_chat_model
from agent.prompts import reasoning_messages

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
