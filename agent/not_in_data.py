"""Saying that the data cannot answer: when every candidate failed on a name
the sources do not have (a column, a table, a BOX, a field), the Answer says
so in one sentence instead of handing on a raw interpreter exception."""

from __future__ import annotations

from collections.abc import Sequence

from agent.answer import AnswerError, Candidate
from agent.feedback import NAME_PATTERNS


def not_in_data(candidates: Sequence[Candidate]) -> AnswerError | None:
    """`NotInData` naming what is missing, when every candidate failed on a
    missing name; None otherwise (some candidate ran, or failed otherwise)."""
    missing = []
    for candidate in candidates:
        error = candidate.error
        name = None if error is None else missing_name(error.type, error.message)
        if name is None:
            return None
        missing.append(name)
    if not missing:
        return None
    names = ", ".join(repr(name) for name in sorted(set(missing)))
    return AnswerError(
        type="NotInData",
        message=(
            f"the sources have no {names}: every program looked for it and none could run, "
            "so the question may ask for something the data does not hold"
        ),
    )


def missing_name(error_type: str, message: str) -> str | None:
    """The unknown name an error complains about, or None."""
    for pattern in NAME_PATTERNS:
        match = pattern.search(message)
        if match:
            return match.group(1).split(".")[-1]
    if error_type == "KeyError":
        return message.strip().strip("\"'") or None
    return None
