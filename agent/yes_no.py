"""A yes/no question answered with a truth value reads as Yes or No.

A program asked "Does Asafa Powell have more medals in his twenties than in
his thirties?" often computes the comparison itself: SQLite gives `1`,
pandas `True`. The user asked for yes or no, and the model's readings of the
data say `Yes`; so a one-cell result that is a truth value becomes `Yes`
or `No` when the question opens like a yes/no question (`Does`, `Is`,
`Has`, `Can`, ...) and offers no alternatives (`or`).

A truth value is a boolean, or the integer 0 or 1 in a column SQLite named
after a comparison (`COUNT(*) > 0`, `EXISTS (...)`). A 1 in a column named
`COUNT(*)` or `n` is a count, which is no answer to a yes/no question, and
stays as the program gave it, like any other result.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

YES_NO_OPENING = re.compile(
    r"^\s*(?:does|do|did|is|are|was|were|has|have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
ALTERNATIVES = re.compile(r"\bor\b", re.IGNORECASE)
COMPARISON = re.compile(r"[<>=]|\b(?:exists|in|is|between|like)\b", re.IGNORECASE)


def is_yes_no_question(question: str) -> bool:
    """Whether `question` asks for yes or no (and not to choose between alternatives)."""
    return bool(YES_NO_OPENING.match(question)) and not ALTERNATIVES.search(question)


def as_yes_or_no(
    question: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> list[list[object]] | None:
    """`[["Yes"]]` or `[["No"]]` when `question` asks for yes or no and the
    result (`columns`, `rows`) is one cell holding a truth value; None otherwise."""
    if not is_yes_no_question(question) or len(rows) != 1 or len(rows[0]) != 1:
        return None
    cell = rows[0][0]
    compared = len(columns) == 1 and bool(COMPARISON.search(columns[0]))
    if isinstance(cell, bool) or (compared and isinstance(cell, int) and cell in (0, 1)):
        return [["Yes" if cell else "No"]]
    return None
