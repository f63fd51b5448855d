"""Result rows as the files `--output` writes: CSV, Markdown or JSON.

Cells are JSON values (numbers stay numbers, missing is null). CSV writes
missing as an empty cell; Markdown escapes what would break a table row;
JSON keeps the values exactly, in the shape of `--json` (columns and rows).
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from plugins.prompt_text import escape_control_characters


def render_result_file(extension: str, columns: list[str], rows: list[list[Any]]) -> str:
    """The text of a result file whose name ends in `extension` (.csv, .md, .json)."""
    renderers = {".csv": _csv_text, ".md": _markdown_text, ".json": _json_text}
    return renderers[extension](columns, rows)


def _csv_text(columns: list[str], rows: list[list[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([_plain_text(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def _markdown_text(columns: list[str], rows: list[list[Any]]) -> str:
    """A GitHub-flavoured Markdown table; number columns aligned right."""
    numeric = []
    for index in range(len(columns)):
        present = [row[index] for row in rows if row[index] is not None]
        numeric.append(bool(present) and all(_is_number(cell) for cell in present))
    lines = [
        _markdown_row(columns),
        "| " + " | ".join("---:" if right else "---" for right in numeric) + " |",
    ]
    lines += [_markdown_row([_plain_text(cell) for cell in row]) for row in rows]
    return "\n".join(lines) + "\n"


def _markdown_row(cells: list[str]) -> str:
    escaped = (escape_control_characters(cell).replace("|", "\\|") for cell in cells)
    return "| " + " | ".join(escaped) + " |"


def _json_text(columns: list[str], rows: list[list[Any]]) -> str:
    return json.dumps({"columns": columns, "rows": rows}, ensure_ascii=False, default=str) + "\n"


def _plain_text(cell: Any) -> str:
    """A cell as text: missing empty, booleans lowercase, lists and objects as JSON."""
    if cell is None:
        return ""
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, list | dict):
        return json.dumps(cell, ensure_ascii=False)
    return str(cell)


def _is_number(cell: Any) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)
