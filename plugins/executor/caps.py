"""The caller's side of a run: what a child sent, checked and cut again.

A child runs untrusted code, so nothing it writes is taken on trust: the
message must have the expected shape, rows are cut at the call's `max_rows`
and the limits' cell and character caps (whatever `head()` did in the child),
error type names are reduced to identifiers, messages to one short line, and
every string to valid UTF-8.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from plugins.executor.charts import checked_chart
from plugins.executor.models import Cell, CodeError, ExecutionResult, Limits
from plugins.executor.results import valid_text
from plugins.terminal_text import terminal_safe

UNKNOWN_TYPE = "Error"
_NOT_IDENTIFIER = re.compile(r"\W+")


class MalformedResult(Exception):
    """The child's message is not a result (not JSON, or not the expected shape)."""


def trusted_result(payload: bytes, limits: Limits, max_rows: int) -> ExecutionResult:
    """The ExecutionResult a child's `payload` describes, within the caps."""
    try:
        message = json.loads(payload)
    except (ValueError, RecursionError) as error:
        raise MalformedResult(f"the result is not JSON: {type(error).__name__}") from None
    if not isinstance(message, dict):
        raise MalformedResult("the result is not a JSON object")
    rows, columns, truncated = _capped_table(message, limits, max_rows)
    stdout = _text(message.get("stdout"), limits.max_stdout_chars)
    total_rows = message.get("total_rows")
    return ExecutionResult(
        result=rows,
        columns=columns,
        total_rows=total_rows if _is_count(total_rows) else (None if rows is None else len(rows)),
        truncated=truncated
        or message.get("truncated") is True
        or len(stdout) < len(_as_str(message.get("stdout"))),
        error=_error(message.get("error"), limits),
        stdout=stdout,
        elapsed_ms=_number(message.get("elapsed_ms")),
        chart=_chart(message.get("chart"), limits),
    )


def failure(error_type: str, message: str, elapsed_ms: float) -> ExecutionResult:
    """A run that produced no result, for reasons the caller observed itself."""
    return ExecutionResult(error=CodeError(type=error_type, message=message), elapsed_ms=elapsed_ms)


def identifier(name: Any, limit: int) -> str:
    """An exception type name as an identifier: other characters become `_`
    (a newline cannot forge a second line), cut at `limit`."""
    text = _NOT_IDENTIFIER.sub("_", _as_str(name))[:limit].strip("_")
    if not text or not (text[0].isalpha() or text[0] == "_"):
        return UNKNOWN_TYPE
    return text


def one_line(text: Any, limit: int) -> str:
    """`text` on one line (runs of whitespace become one space, control
    characters escapes), cut at `limit`."""
    return terminal_safe(valid_text(" ".join(_as_str(text)[: limit * 4].split())))[:limit]


def _capped_table(
    message: dict[str, Any], limits: Limits, max_rows: int
) -> tuple[list[list[Cell]] | None, list[str], bool]:
    raw_rows = message.get("result")
    if raw_rows is None:
        return None, [], False
    raw_columns = message.get("columns")
    if not isinstance(raw_rows, list) or not isinstance(raw_columns, list):
        raise MalformedResult("result and columns must be lists")
    cells = 0
    characters = 0
    truncated = False
    columns: list[str] = []
    for name in raw_columns:
        text = _text(name, limits.max_cell_chars)
        cells, characters = cells + 1, characters + len(text)
        if cells > limits.max_cells or characters > limits.max_result_chars:
            return [], columns, True
        columns.append(text)
    rows: list[list[Cell]] = []
    for raw_row in raw_rows[:max_rows]:
        if not isinstance(raw_row, list):
            raise MalformedResult("every row must be a list")
        row = [_cell(value, limits) for value in raw_row]
        cells += len(row)
        characters += sum(len(value) for value in row if isinstance(value, str))
        if cells > limits.max_cells or characters > limits.max_result_chars:
            truncated = True
            break
        rows.append(row)
    truncated = truncated or len(raw_rows) > len(rows)
    return rows, columns, truncated


def _cell(value: Any, limits: Limits) -> Cell:
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return valid_text(value[: limits.max_cell_chars])
    raise MalformedResult("a cell must be a JSON scalar")


def _error(raw: Any, limits: Limits) -> CodeError | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise MalformedResult("error must be an object")
    line = raw.get("line")
    return CodeError(
        type=identifier(raw.get("type"), limits.max_type_chars),
        message=one_line(raw.get("message"), limits.max_message_chars) or "(no message)",
        line=line if _is_count(line) else None,
    )


def _chart(value: Any, limits: Limits) -> str | None:
    try:
        return checked_chart(value, limits)
    except ValueError as error:
        raise MalformedResult(str(error)) from None


def _text(value: Any, limit: int) -> str:
    return valid_text(_as_str(value)[:limit])


def _as_str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
