"""The data itself as prompt text, for the direct-answer baseline: a model that
answers without code must read the values, not just the schema.

Names and cells come from the data, so their control characters are escaped
(`plugins.prompt_text`): a newline in a column name cannot start a line of the
prompt, and every line, the header included, fits the character budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from plugins import Box
from plugins.prompt_text import escape_control_characters

DATA_TEXT_MAX_CHARACTERS = 12_000
"""About 4,000 tokens: the local model's 8,192-token context keeps room for the
instruction, the question and the reply."""
BLOCK_SEPARATOR = "\n\n"
CUT_MARK = "…"


def boxes_as_text(boxes: Sequence[Box], max_characters: int = DATA_TEXT_MAX_CHARACTERS) -> str:
    """Each BOX as a heading and CSV lines, as many rows as fit in an equal
    share of `max_characters`; a BOX cut short says how many rows it has.
    The whole text never exceeds `max_characters`."""
    share = max_characters // max(len(boxes), 1) - len(BLOCK_SEPARATOR)
    text = BLOCK_SEPARATOR.join(box_as_text(box, share) for box in boxes)
    return text[:max_characters]  # only thousands of BOXes leave blocks too small to share


def whole_boxes_as_text(boxes: Sequence[Box], max_characters: int) -> str | None:
    """All the BOXes' rows as `boxes_as_text` writes them, or None when they do
    not all fit in `max_characters`: what a model may read to answer, since
    an answer read from part of a table is a guess about the rest."""
    if not boxes:
        return None
    blocks = [_box_block(box, max_characters) for box in boxes]
    if not all(whole for _, whole in blocks):
        return None
    text = BLOCK_SEPARATOR.join(block for block, _ in blocks)
    return text if len(text) <= max_characters else None


def box_as_text(box: Box, budget: int) -> str:
    """One BOX in at most `budget` characters: a heading, the header line (cut
    with `…` when longer than the budget) and the first rows that fit."""
    return _box_block(box, budget)[0]


def _box_block(box: Box, budget: int) -> tuple[str, bool]:
    """`box_as_text`'s block, and whether it holds every row and a whole header."""
    rows = len(box.frame)
    name = escape_control_characters(box.name)
    longest_heading = f"### {name} ({rows} rows, the first {rows} shown)"
    room = budget - len(longest_heading) - 1
    if room < len(CUT_MARK) + 1:
        return _cut(f"### {name} ({rows} rows)", budget), False
    # a row line holds a comma between cells and ends with a line break: no more
    # rows than this can fit, and none when the header alone is wider than `room`
    most_rows = room // max(len(box.frame.columns), 1)
    shown_frame = box.frame.head(most_rows).map(_escaped_cell)
    shown_frame.columns = [escape_control_characters(str(column)) for column in box.frame.columns]
    header, *lines = shown_frame.to_csv(index=False).splitlines()
    kept = [_cut(header, room - 1)]
    header_whole = kept[0] == header
    used = len(kept[0]) + 1
    for line in lines:
        if used + len(line) + 1 > room:
            break
        kept.append(line)
        used += len(line) + 1
    shown = len(kept) - 1
    heading = f"### {name} ({rows} rows"
    heading += ")" if shown >= rows else f", the first {shown} shown)"
    return heading + "\n" + "\n".join(kept), header_whole and shown >= rows


def _escaped_cell(value: object) -> object:
    return escape_control_characters(value) if isinstance(value, str) else value


def _cut(text: str, limit: int) -> str:
    """`text`, or its first characters and `…` when longer than `limit`."""
    if len(text) <= limit:
        return text
    if limit < len(CUT_MARK):
        return text[: max(limit, 0)]
    return text[: limit - len(CUT_MARK)] + CUT_MARK
