"""The agent's LangGraph state machine:

    plan -> retrieve_demonstrations -> generate_code -> execute -> reflect -> vote
    execute -> repair -> execute      (a program fixed with no LLM call)
    reflect -> generate_code          (execution feedback: a corrected program)
    vote -> read_data -> vote         (once: the model reads the data; with no
                                      reading, on to retrieve_demonstrations)
    vote -> retrieve_demonstrations   (the next candidate) | END

Each candidate is a chain of attempts (a program and its corrections) in one
route (a representation); vote groups the finished candidates' results and
either answers or starts the next candidate. The first time vote does not
answer, read_data asks the model to read data small enough to show whole,
a few times; its readings are candidates too, voting with the programs (it
does nothing when the run does not read), so a sure first program answers
without them. plan jumps straight to execute
when the program cache holds the question; generate_code goes to reflect
when the reply holds no code, and to vote when the LLM does not answer;
reflect goes back to retrieve_demonstrations when a cached program failed.
With one candidate and one route this is the Pandora paper's loop.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import START, StateGraph

from agent.context import AgentContext
from agent.nodes import (
    execute,
    generate_code,
    plan,
    read_data,
    reflect,
    repair,
    retrieve_demonstrations,
    route_after_execute,
    route_after_generate,
    route_after_plan,
    route_after_read,
    route_after_reflect,
    route_after_repair,
    route_after_vote,
    vote,
)
from agent.state import AgentInput, AgentOutput, AgentState


def build_graph(checkpointer: Any = None) -> Any:
    """The compiled graph; usable alone (`invoke({"question", "sources"},
    context=AgentContext(...))`) or as a node of a parent graph. A
    `checkpointer` (e.g. langgraph's SqliteSaver) makes runs resumable."""
    builder = StateGraph(
        AgentState, context_schema=AgentContext, input_schema=AgentInput, output_schema=AgentOutput
    )
    builder.add_node("plan", plan)
    builder.add_node("read_data", read_data)
    builder.add_node("retrieve_demonstrations", retrieve_demonstrations)
    builder.add_node("generate_code", generate_code)
    builder.add_node("execute", execute)
    builder.add_node("repair", repair)
    builder.add_node("reflect", reflect)
    builder.add_node("vote", vote)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", route_after_plan)
    builder.add_conditional_edges("read_data", route_after_read)
    builder.add_edge("retrieve_demonstrations", "generate_code")
    builder.add_conditional_edges("generate_code", route_after_generate)
    builder.add_conditional_edges("execute", route_after_execute)
    builder.add_conditional_edges("repair", route_after_repair)
    builder.add_conditional_edges("reflect", route_after_reflect)
    builder.add_conditional_edges("vote", route_after_vote)
    return builder.compile(checkpointer=checkpointer, name="pandora")


graph = build_graph()
"""The compiled graph `ask` runs (compiled once per process) and the one
`langgraph.json` points LangGraph Studio and `langgraph dev` at."""
