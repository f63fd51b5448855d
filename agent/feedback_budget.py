"""The bounds of execution feedback: how long it may search for hints and how
much text it may write.

Feedback runs in the caller, after the executor's timeout is over, on data
the program chose: a table of a million rows, ten thousand columns, cells of
a hundred kilobytes, names of any length. So the search stops at a deadline
(the hints found by then are kept), reads at most `ROWS_SCANNED` rows of a
column, compares at most `MATCH_CHARS` characters of a name, and every value,
name and list it shows is cut; the whole text is cut at `max_chars` last.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

FEEDBACK_SECONDS = 2.0
FEEDBACK_MAX_CHARS = 4_000
VALUE_CHARS = 60
NAME_CHARS = 100
ITEMS_SHOWN = 20
ROWS_SCANNED = 20_000
MATCH_CHARS = 200
ELLIPSIS = "…"


@dataclass(frozen=True)
class FeedbackLimits:
    """How long feedback may search (seconds of wall time) and how many
    characters its text may hold."""

    seconds: float = FEEDBACK_SECONDS
    max_chars: int = FEEDBACK_MAX_CHARS


class Deadline:
    """The moment feedback stops looking for more hints."""

    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds
        self.reached = False

    def passed(self) -> bool:
        """True once the time is up (and from then on)."""
        self.reached = self.reached or time.monotonic() >= self._end
        return self.reached


def cut(text: str, limit: int) -> str:
    """`text` cut to `limit` characters, the cut marked."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def shown_value(value: object) -> str:
    """A data value as the feedback quotes it: its repr (a date as its ISO
    text), cut to VALUE_CHARS."""
    if hasattr(value, "isoformat"):
        value = value.isoformat()
    return cut(repr(value), VALUE_CHARS)


def shown_name(name: object) -> str:
    """A BOX, field or node name, quoted, cut to NAME_CHARS."""
    return cut(repr(str(name)), NAME_CHARS)


def shown_items(items: Iterable[object], limit: int = ITEMS_SHOWN) -> str:
    """The first `limit` names, quoted and comma-separated, then how many more."""
    items = list(items)
    text = ", ".join(shown_name(item) for item in items[:limit])
    return text + (f", and {len(items) - limit} more" if len(items) > limit else "")


def comparable(text: str) -> str:
    """What fuzzy matching compares of a name: its first MATCH_CHARS
    characters, casefolded (the cost of a comparison grows with length)."""
    return text[:MATCH_CHARS].casefold()


def fit(text: str, max_chars: int) -> str:
    """The whole feedback within `max_chars`, saying that it was cut."""
    if len(text) <= max_chars:
        return text
    note = "\n(feedback cut here)"
    return text[: max(0, max_chars - len(note))] + note
