"""A yes/no question answered with a truth value reads as Yes or No.

A program asked "Does Asafa Powell have more medals in his twenties than in
his thirties?" often computes the comparison itself: SQLite gives `1`,
pandas `True`. The user asked for yes or no, and the model's readings of the
data say `Yes`; so a one-cell result that is a truth value becomes `Yes`
or `No` when the question opens like a yes/no question (`Does`, `Is`,
`Has`, `Can`, ...) and offers no alternatives (`or`).

A truth value is a boolean, or the integer 0 or 1 in a column SQLite named
after a comparison (`COUNT(*) > 0`, `EXISTS (...)`).

A count answers a yes/no question only when the question asks whether
something exists ("Has Omar Assar ever won a Bronze medal in the Africa TOP
16 Cup?", answered by `SELECT COUNT(*) ...` = 2): a count above 0 is Yes, 0
is No. A question that compares ("more medals in his twenties than in his
thirties", "as many", "the same") or asks about a number of things ("Does
she have 3 gold medals?", "twice"; "the Africa TOP 16 Cup" and "in 1996"
name things, not numbers asked about) is not answered by one count, which
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
COUNT_COLUMN = re.compile(
    r"^\s*count\s*\(|^(?:n|count|total|number|num_\w+|\w+_count)$", re.IGNORECASE
)
COMPARING_WORDS = re.compile(
    r"\b(?:than|compared?|more|less|fewer|greater|higher|lower|same|equal|as many|as much"
    r"|most|least|exactly|at least|at most)\b",
    re.IGNORECASE,
)
NUMBER_ASKED_ABOUT = re.compile(
    r"\b(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:[a-z-]+\s+){0,2}?"
    r"(?:[a-z-]+s|times)\b|\b(?:once|twice)\b",
    re.IGNORECASE,
)


def is_yes_no_question(question: str) -> bool:
    """Whether `question` asks for yes or no (and not to choose between alternatives)."""
    return bool(YES_NO_OPENING.match(question)) and not ALTERNATIVES.search(question)


def as_yes_or_no(
    question: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> list[list[object]] | None:
    """`[["Yes"]]` or `[["No"]]` when `question` asks for yes or no and the
    result (`columns`, `rows`) is one cell holding a truth value, or a count
    of what the question asks exists; None otherwise."""
    if not is_yes_no_question(question) or len(rows) != 1 or len(rows[0]) != 1:
        return None
    cell = rows[0][0]
    column = columns[0] if len(columns) == 1 else ""
    compared = bool(COMPARISON.search(column))
    if isinstance(cell, bool) or (compared and isinstance(cell, int) and cell in (0, 1)):
        return [["Yes" if cell else "No"]]
    counted = not compared and bool(COUNT_COLUMN.search(column)) and type(cell) is int and cell >= 0
    if counted and asks_whether_any_exists(question):
        return [["Yes" if cell > 0 else "No"]]
    return None


def asks_whether_any_exists(question: str) -> bool:
    """Whether yes/no `question` asks only if something exists (no
    comparison, no number of its own), so that a count of it answers: above
    0 is Yes."""
    return (
        is_yes_no_question(question)
        and not COMPARING_WORDS.search(question)
        and not NUMBER_ASKED_ABOUT.search(question)
    )
