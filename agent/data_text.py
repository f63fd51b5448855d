"""The data itself as prompt text, for the direct-answer baseline: a model that
answers without code must read the values, not just the schema."""

from __future__ import annotations

from collections.abc import Sequence

from plugins import Box

DATA_TEXT_MAX_CHARACTERS = 12_000
"""About 4,000 tokens: the local model's 8,192-token context keeps room for the
instruction, the question and the reply."""


def boxes_as_text(boxes: Sequence[Box], max_characters: int = DATA_TEXT_MAX_CHARACTERS) -> str:
    """Each BOX as a heading and CSV lines, as many rows as fit in an equal
    share of `max_characters`; a BOX cut short says how many rows it has."""
    share = max_characters // max(len(boxes), 1)
    blocks = []
    for box in boxes:
        lines = box.frame.to_csv(index=False).splitlines()
        kept: list[str] = []
        used = 0
        for line in lines:
            if used + len(line) + 1 > share and kept:
                break
            kept.append(line)
            used += len(line) + 1
        rows = len(box.frame)
        shown = len(kept) - 1
        heading = f"### {box.name} ({rows} rows"
        heading += ")" if shown >= rows else f", the first {shown} shown)"
        blocks.append(heading + "\n" + "\n".join(kept))
    return "\n\n".join(blocks)
