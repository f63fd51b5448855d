"""How big a stored demonstration may be.

Demonstration text is shown in other users' prompts, so every way into the
store (`pandora memory add`, `ask --save`, `memory import`, the MCP tool, a
dataset build) is held to the same caps: a demonstration over one is refused
with a one-line error naming the field, and nothing is written.
"""

from __future__ import annotations

import json

from memory.models import Demonstration
from plugins.errors import BadInputError

MAX_CHARACTERS: dict[str, int] = {
    "question": 1_000,
    "reasoning": 4_000,
    "code": 8_000,
    "answer": 20_000,
}
"""Per field, in characters (the answer as compact JSON)."""


class DemonstrationTooLarge(BadInputError):
    """A demonstration field is longer than the memory keeps."""


def field_sizes(question: str, reasoning: str, code: str, answer: object = ()) -> dict[str, int]:
    """The size of each capped field, in characters."""
    return {
        "question": len(question),
        "reasoning": len(reasoning),
        "code": len(code),
        "answer": len(json.dumps(answer, separators=(",", ":"), default=str)),
    }


def size_problem(question: str, reasoning: str, code: str, answer: object = ()) -> str | None:
    """One line naming the first field over its cap, or None when all fit."""
    for name, size in field_sizes(question, reasoning, code, answer).items():
        if size > MAX_CHARACTERS[name]:
            return (
                f"{name} is {size:,} characters; the memory keeps at most {MAX_CHARACTERS[name]:,}"
            )
    return None


def require_within_limits(demonstration: Demonstration) -> None:
    """Raise `DemonstrationTooLarge` when a field of `demonstration` is over its cap."""
    problem = size_problem(
        demonstration.question, demonstration.reasoning, demonstration.code, demonstration.answer
    )
    if problem is not None:
        raise DemonstrationTooLarge(problem)
