"""Text literals that match nothing: `WHERE sex = 'Female'` over a column
whose values are `female` and `male` runs to no row (or a count of 0)
without an error. When the literal is no value of the field but exactly
one value equals it but for case and spacing, or failing that but for case
and separators (`_ - .`), repair writes that value instead and the program
runs again with no LLM call. No fuzzy match is ever written: `Jon` and
`John` are different people. A literal that no value matches (or two do)
gets a note naming the field's values nearest to it, for the vote (the
result is flagged) and for the LLM's next attempt.

The data is untrusted and may be large: only text fields of at most
`MAX_ROWS_READ` rows and `MAX_DISTINCT_VALUES` distinct values are read,
values longer than `MAX_VALUE_CHARS` are never compared, and the note
quotes at most `VALUES_SHOWN` values, each cut (`agent.feedback_budget`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd
from rapidfuzz import fuzz, process

from agent.feedback_budget import NAME_CHARS, comparable, cut, shown_name, shown_value
from agent.repair import Repair
from agent.repair.literal_filters import TextFilter, program_filters
from agent.repair.names import folded
from plugins import Box
from plugins.loaders.cell_types import is_text

MAX_ROWS_READ = 200_000
MAX_DISTINCT_VALUES = 10_000
MAX_VALUE_CHARS = 1_000
MAX_LITERAL_CHARS = 200
MAX_FILTERS = 20
VALUES_SHOWN = 5
NOTES_SHOWN = 3


@dataclass(frozen=True)
class UnmatchedLiteral:
    """A filter whose literal is no value of its field: the values equal to
    it but for case and spacing (one: repair writes it), and the field's
    values nearest to it (for the note)."""

    filter: TextFilter
    matches: tuple[str, ...]
    nearest: tuple[str, ...]
    distinct: int


def matches_nothing(rows: Sequence[Sequence[object]] | None) -> bool:
    """Whether a result is what a filter that matches no row gives: no
    rows, or one row of zeros and missing values (a count, a sum, an average)."""
    if rows is None:
        return False
    if not rows:
        return True
    return len(rows) == 1 and bool(rows[0]) and all(cell in (0, None) for cell in rows[0])


def repair_literals(code: str, language: str, boxes: list[Box], dialect: str) -> Repair | None:
    """`code` with each text literal that is no value of its field replaced
    by the one value equal to it but for case and spacing; None when no
    literal can be replaced."""
    program = program_filters(code, language, boxes, dialect)
    if program is None:
        return None
    values, changes = {}, []
    for index, unmatched in _unmatched(program.filters):
        if len(unmatched.matches) == 1:
            value = unmatched.matches[0]
            values[index] = value
            literal = shown_value(unmatched.filter.literal)
            changes.append(f"value {literal} -> {shown_value(value)} in {_where(unmatched.filter)}")
    if not values:
        return None
    return Repair(program.rewritten(values), tuple(changes))


def unmatched_note(code: str, language: str, boxes: list[Box], dialect: str) -> str | None:
    """A line per text literal of `code` that is no value of its field (and
    that repair could not replace), naming the field's values nearest to
    it; None when every literal is a value (or none is compared with a field)."""
    program = program_filters(code, language, boxes, dialect)
    if program is None:
        return None
    lines = []
    for _, unmatched in _unmatched(program.filters):
        if len(unmatched.matches) == 1:
            continue
        nearest = ", ".join(shown_value(value) for value in unmatched.nearest)
        if unmatched.distinct <= VALUES_SHOWN:
            values = f"its values are {nearest}"
        else:
            values = f"of its {unmatched.distinct} distinct values the nearest are {nearest}"
        lines.append(
            f"No row has {_where(unmatched.filter)} == {shown_value(unmatched.filter.literal)}: "
            f"the filter matches nothing; {values}."
        )
    return "\n".join(list(dict.fromkeys(lines))[:NOTES_SHOWN]) or None


def _where(text_filter: TextFilter) -> str:
    """`box['field']` as the note and the trace name it (both names cut)."""
    box = cut(" ".join(text_filter.box.name.split()), NAME_CHARS)
    return f"{box}[{shown_name(text_filter.column)}]"


def _unmatched(filters: list[TextFilter]) -> list[tuple[int, UnmatchedLiteral]]:
    """(index, what is known) of each filter whose literal is no value of its field."""
    read: dict[tuple[str, str], list[str] | None] = {}
    found = []
    for index, text_filter in enumerate(filters[:MAX_FILTERS]):
        if not 0 < len(text_filter.literal) <= MAX_LITERAL_CHARS:
            continue
        key = (text_filter.box.name, text_filter.column)
        if key not in read:
            read[key] = _text_values(text_filter.box, text_filter.column)
        values = read[key]
        if values is None or text_filter.literal in values or not values:
            continue
        matches = _same_but_for_case(text_filter.literal, values)
        nearest = _nearest(text_filter.literal, values, matches)
        found.append((index, UnmatchedLiteral(text_filter, matches, nearest, len(values))))
    return found


def _text_values(box: Box, column: str) -> list[str] | None:
    """The distinct text values of a field, or None when it is not text,
    is too long, or has too many distinct values to be read whole."""
    if len(box.frame) > MAX_ROWS_READ:
        return None
    series = box.frame[column]
    if not isinstance(series, pd.Series) or not is_text(series):
        return None
    try:
        distinct = series.dropna().drop_duplicates()
    except TypeError:  # unhashable cells (lists of a KG's multi-valued field)
        return None
    if len(distinct) > MAX_DISTINCT_VALUES:
        return None
    return [value for value in distinct if isinstance(value, str)]


def _same_but_for_case(literal: str, values: list[str]) -> tuple[str, ...]:
    """The values equal to `literal` but for case and spacing; failing
    those, the values equal to it but for case and separators."""
    spaced = _spaced(literal)
    same = tuple(value for value in values if _comparable(value) and _spaced(value) == spaced)
    if same or not folded(literal):
        return same
    loose = folded(literal)
    return tuple(value for value in values if _comparable(value) and folded(value) == loose)


def _nearest(literal: str, values: list[str], matches: tuple[str, ...]) -> tuple[str, ...]:
    """The VALUES_SHOWN values most similar to `literal`, its near-equals first."""
    rest = [value for value in values if _comparable(value) and value not in matches]
    found = process.extract(
        comparable(literal),
        [comparable(value) for value in rest],
        scorer=fuzz.WRatio,
        processor=None,
        limit=VALUES_SHOWN,
    )
    return (*matches, *(rest[index] for _, _, index in found))[:VALUES_SHOWN]


def _comparable(value: str) -> bool:
    return len(value) <= MAX_VALUE_CHARS


def _spaced(text: str) -> str:
    return " ".join(text.split()).casefold()
