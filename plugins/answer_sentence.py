"""A one-sentence answer read off the rows, for the shapes that need no LLM
to put into words: one value, a label with its value, a short list, nothing.

Values come from the data, so their control characters are escaped and long
ones are cut: the sentence is safe on a terminal and in a prompt. It lives
beside the plugins, not in `agent/`, so that `pandora sql` and `run` print it
without importing the agent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from plugins.prompt_text import escape_control_characters

LONGEST_LIST = 5
"""More items than this read better as the table itself."""
LONGEST_VALUE = 200
DECIMALS = 4


def answer_sentence(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str | None:
    """One sentence stating the answer of `rows` (JSON values named by `columns`),
    or None when the shape is not a simple one.

    One value: "The answer is 8."; a label and a value: "The answer is Jazz,
    with average price 8.99."; up to LONGEST_LIST values, or labels with values:
    "The answers are Rock (10.74), Jazz (8.99) and Pop (7.99)."; no rows:
    "No rows match."
    """
    if not rows:
        return "No rows match." if columns else None
    width = len(rows[0])
    if any(len(row) != width for row in rows) or width not in (1, 2):
        return None
    if width == 2 and not _is_label_and_value(rows):
        return None
    if len(rows) == 1:
        if width == 1:
            return f"The answer is {_spoken(rows[0][0])}."
        label, value = rows[0]
        measure = _spoken_name(columns[1]) if len(columns) == 2 else "value"
        return f"The answer is {_spoken(label)}, with {measure} {_spoken(value)}."
    if len(rows) > LONGEST_LIST:
        return None
    if width == 1:
        items = [_spoken(row[0]) for row in rows]
    else:
        items = [f"{_spoken(label)} ({_spoken(value)})" for label, value in rows]
    return f"The answers are {', '.join(items[:-1])} and {items[-1]}."


def _is_label_and_value(rows: Sequence[Sequence[Any]]) -> bool:
    """Whether the first column names things and the second measures them."""
    return all(isinstance(label, str) and _is_number(value) for label, value in rows)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _spoken(value: Any) -> str:
    """A JSON value as words: numbers without float noise, yes/no, empty."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        rounded = round(value, DECIMALS)
        text = str(int(rounded)) if rounded.is_integer() and abs(rounded) < 1e15 else repr(rounded)
        return text if rounded != 0 or value == 0 else repr(value)
    text = escape_control_characters(str(value))
    return text if len(text) <= LONGEST_VALUE else text[: LONGEST_VALUE - 1] + "…"


def _spoken_name(column: str) -> str:
    """A column name as words: `avg_price` -> `avg price`."""
    return _spoken(column.replace("_", " ").strip()) or "value"
