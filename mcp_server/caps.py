"""Caps on what one call returns: at most N rows and M characters of JSON.

An assistant's context window is the scarce resource: a program that returns
a million rows must come back as its first rows, the total count and
`truncated: true`, never as the million rows.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import JsonValue

CELL_CHARS_SHARE = 4
"""One text cell may use at most a quarter of the character budget."""

ELLIPSIS = "…"


@dataclass(frozen=True)
class CappedRows:
    """Rows kept under the caps, and whether anything was cut."""

    rows: list[list[JsonValue]]
    truncated: bool


def cap_rows(rows: list[list[JsonValue]], max_rows: int, max_chars: int) -> CappedRows:
    """The first rows of `rows` that fit in `max_rows` rows and about `max_chars`
    characters of JSON; a text cell longer than a quarter of the budget is cut."""
    cell_limit = max(1, max_chars // CELL_CHARS_SHARE)
    kept: list[list[JsonValue]] = []
    used = 0
    truncated = len(rows) > max_rows
    for row in rows[:max_rows]:
        cells = [_cap_cell(cell, cell_limit) for cell in row]
        truncated = truncated or cells != row
        size = len(json.dumps(cells, ensure_ascii=False, default=str))
        if kept and used + size > max_chars:
            return CappedRows(kept, True)
        kept.append(cells)
        used += size
    return CappedRows(kept, truncated)


def cap_text(text: str, max_chars: int) -> str:
    """`text` cut to `max_chars` characters, marked when cut."""
    return text if len(text) <= max_chars else text[: max_chars - 1] + ELLIPSIS


def _cap_cell(cell: JsonValue, limit: int) -> JsonValue:
    if isinstance(cell, str) and len(cell) > limit:
        return cell[: limit - 1] + ELLIPSIS
    return cell
