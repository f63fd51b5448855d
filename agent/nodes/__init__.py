"""The graph's nodes, one module each; every node returns a partial state update."""

from agent.nodes.demonstrations import retrieve_demonstrations
from agent.nodes.execute import execute, route_after_execute
from agent.nodes.generate import generate_code, route_after_generate
from agent.nodes.plan import plan, route_after_plan
from agent.nodes.read import read_data, route_after_read
from agent.nodes.reflect import reflect, route_after_reflect
from agent.nodes.repair import repair, route_after_repair
from agent.nodes.vote import route_after_vote, vote

__all__ = [
    "execute",
    "generate_code",
    "plan",
    "read_data",
    "reflect",
    "repair",
    "retrieve_demonstrations",
    "route_after_execute",
    "route_after_generate",
    "route_after_plan",
    "route_after_read",
    "route_after_reflect",
    "route_after_repair",
    "route_after_vote",
    "vote",
]
