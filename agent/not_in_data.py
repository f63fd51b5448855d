"""Saying that the data cannot answer: when every candidate failed on a name
the sources do not have (a column, a table, a BOX, a field), the Answer says
so in one sentence instead of handing on a raw interpreter exception."""

from __future__ import annotations

from collections.abc import Sequence

from agent.answer import AnswerError, Candidate
from agent.feedback import missing_name
from agent.repair.names import folded
from plugins import Box


def not_in_data(candidates: Sequence[Candidate], boxes: Sequence[Box]) -> AnswerError | None:
    """`NotInData` naming what is missing, when every candidate failed on a
    name no BOX (table) or field of `boxes` has; None otherwise (some
    candidate ran, failed otherwise, or missed a name the data has, such as
    a field of a table it did not join)."""
    known = {folded(box.name) for box in boxes}
    known |= {folded(str(column)) for box in boxes for column in box.frame.columns}
    missing = []
    for candidate in candidates:
        if candidate.origin == "reading":
            continue  # no program: the model's reading of the data names no field
        error = candidate.error
        name = None if error is None else missing_name(error.type, error.message)
        if name is None or folded(name) in known:
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
