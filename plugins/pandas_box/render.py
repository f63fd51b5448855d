"""BOX schemas rendered as pandas code, the way the LLM sees them.

Each BOX becomes `name = pd.DataFrame({'field': [...], ...})` with the
field's dtype as a comment; with example values, `'field': [v1, v2, ...]`,
and a comment naming a closing total row (`plugins.total_rows`).
Foreign keys follow as comments, so the code that joins BOXes can be written
from the text alone.

Every name and value is written with Python's own quoting (`repr`), and
comments never hold a raw line break, so the rendered text always parses as
Python: a cell value or a key name cannot put text in code position.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from plugins.model import Box
from plugins.total_rows import find_total_row

MAX_VALUE_CHARACTERS = 60
MAX_VALUES_PER_FIELD = 3
"""Distinct example values a field shows however many are asked for: a BOX
lists values per field, so more of them would not make rows a model can read."""


def render_box_schema(box: Box, values: int = 0) -> str:
    """One BOX as pandas code: fields, dtypes, foreign keys, optional example values."""
    origin = _comment(box.origin)
    lines = [f"# BOX {_comment(box.name)} from source {origin}: {len(box.frame)} rows"]
    lines.append(f"{_variable(box.name)} = pd.DataFrame({{")
    for column, series in box.frame.items():
        examples = _example_values(series, values) if values else ""
        lines.append(f"    {str(column)!r}: [{examples}...],  # {_comment(str(series.dtype))}")
    lines.append("})")
    lines.extend(
        f"# foreign key: {_comment(box.name)}[{key.field!r}] -> "
        f"{_comment(key.ref_box)}[{key.ref_field!r}]"
        for key in box.foreign_keys
    )
    total = find_total_row(box.frame) if values else None
    if total is not None:
        lines.append(
            f"# the row where {_variable(box.name)}[{total.label_column!r}] == {total.label!r}"
            " adds up the rows above it: leave it out of counts, sums, means and rankings"
        )
    return "\n".join(lines)


def render_view_box_schema(box: Box, description: str, values: int = 0) -> str:
    """A joined view's BOX as pandas code, with a comment saying what it joins."""
    header, *rest = render_box_schema(box, values).split("\n")
    return "\n".join([header, f"# {_comment(description)}", *rest])


def render_boxes_schema(
    boxes: list[Box], values: int = 0, views: list[tuple[Box, str]] = ()
) -> str:
    """Every BOX of a workspace, then the BOXes of its joined views (each
    with its description), separated by blank lines."""
    blocks = [render_box_schema(box, values) for box in boxes]
    blocks += [render_view_box_schema(box, text, values) for box, text in views]
    return "\n\n".join(blocks)


def _variable(name: str) -> str:
    """A BOX name in code position: BOX names are identifiers by contract."""
    if not name.isidentifier():
        raise ValueError(f"the BOX name {name!r} is not a Python identifier")
    return name


def _comment(text: str) -> str:
    """`text` inside a comment: as is when printable, else quoted (a line break
    would end the comment and put the rest in code position)."""
    return text if text.isprintable() else repr(text)


def _example_values(column: pd.Series, count: int) -> str:
    distinct = column.dropna().drop_duplicates().head(min(count, MAX_VALUES_PER_FIELD))
    shown = [_literal(value) for value in distinct]
    return "".join(f"{text}, " for text in shown)


def _literal(value: Any) -> str:
    """One example value as a Python literal; long text is cut before quoting."""
    if hasattr(value, "item") and not isinstance(value, pd.Timestamp):
        value = value.item()
    if isinstance(value, bool | int | float) and len(repr(value)) <= MAX_VALUE_CHARACTERS:
        return repr(value)
    text = str(value)
    if len(text) > MAX_VALUE_CHARACTERS:
        text = text[: MAX_VALUE_CHARACTERS - 3] + "..."
    return repr(text)
