"""BOX schemas rendered as pandas code, the way the LLM sees them.

Each BOX becomes `name = pd.DataFrame({'field': [...dtype], ...})`; with
example values, `'field': [v1, v2, ...dtype]`. Foreign keys follow as
comments, so the code that joins BOXes can be written from the text alone.
"""

from __future__ import annotations

import pandas as pd

from plugins.model import Box

MAX_VALUE_CHARACTERS = 60


def render_box_schema(box: Box, values: int = 0) -> str:
    """One BOX as pandas code: fields, dtypes, foreign keys, optional example values."""
    lines = [f"# BOX {box.name} from source {box.origin}: {len(box.frame)} rows"]
    lines.append(f"{box.name} = pd.DataFrame({{")
    for field in box.fields:
        examples = _example_values(box.frame[field.name], values) if values else ""
        lines.append(f"    {field.name!r}: [{examples}...{field.dtype}],")
    lines.append("})")
    lines.extend(
        f"# foreign key: {box.name}[{key.field!r}] -> {key.ref_box}[{key.ref_field!r}]"
        for key in box.foreign_keys
    )
    return "\n".join(lines)


def render_boxes_schema(boxes: list[Box], values: int = 0) -> str:
    """Every BOX of a workspace, separated by blank lines."""
    return "\n\n".join(render_box_schema(box, values) for box in boxes)


def _example_values(column: pd.Series, count: int) -> str:
    shown = []
    for value in column.dropna().drop_duplicates().head(count):
        text = repr(str(value) if isinstance(value, pd.Timestamp) else _plain(value))
        if len(text) > MAX_VALUE_CHARACTERS:
            text = text[: MAX_VALUE_CHARACTERS - 4] + "...'"
        shown.append(text)
    return "".join(f"{text}, " for text in shown)


def _plain(value: object) -> object:
    """numpy scalars as plain Python values, so they print as `3` not `np.int64(3)`."""
    return value.item() if hasattr(value, "item") else value
