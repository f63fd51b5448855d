"""Execution guidance: what the next prompt is told about a program that
failed or whose result looks wrong.

Beyond the interpreter's message, it answers the most common failure of
models in this field, invented names: a missing BOX, field or table gets
"did you mean" with a few values of the nearest fields, and a text value that
matches nothing in the data gets the close values that do exist, and a
program that tries to read a file is told the BOXes are loaded. It also
flags results that ran but look wrong: no rows, columns with only missing
values, more rows than any BOX after a join, the same rows over and over,
many rows for a "how many", whole rows where the question asks for a field.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd
from rapidfuzz import fuzz, process

from agent.join_paths import render_joins, shortest_join_path
from agent.state import Attempt
from plugins import Box
from plugins.loaders.cell_types import is_text

NAME_PATTERNS = (
    re.compile(r"has no attribute '([^']+)'"),
    re.compile(r"name '([^']+)' is not defined"),
    re.compile(r"no such (?:column|table): ([\w.]+)", re.IGNORECASE),
    re.compile(r"(?:column|table)(?: with name)? \"?([\w.]+)\"? (?:does not exist|not found)"),
    re.compile(r"Referenced column \"([^\"]+)\" not found"),
)
MERGE_CALL = re.compile(r"\bmerge\(")
SQL_STRING = re.compile(r"'((?:[^']|'')*)'")
SUGGESTIONS = 3
VALUES_SHOWN = 4
MIN_SIMILARITY = 70
MAX_DISTINCT_SCANNED = 5000
DUPLICATES_MIN_ROWS = 4
SQL_CLAUSE_START = re.compile(
    r"^\s*(SELECT|FROM|WITH|JOIN|WHERE|GROUP\s+BY|ORDER\s+BY|HAVING)\b",
    re.IGNORECASE | re.MULTILINE,
)
FILE_READING = re.compile(r"'(read_\w+|open)'")
TEXT_ARITHMETIC = re.compile(r"string dtype|could not convert string|operand type|str(ing)? and")
NUMERIC_TEXT_SHARE = 0.8
COUNT_QUESTION = re.compile(
    r"^\s*(how many\b|count\b|(what is|what's|find|show|return|give|tell me|list)( me)?"
    r" the (total )?number of\b)",
    re.IGNORECASE,
)
"""Questions whose answer is one count unless they group ("Count the number of
dogs", "What is the total number of districts?", "How many albums?")."""
GROUPING_WORDS = re.compile(r"\b(each|per|every|by)\b", re.IGNORECASE)
WIDE_RESULT_COLUMNS = 5
WHOLE_ROWS_WORDS = re.compile(
    r"\b(information|details|everything|all (the )?(columns|fields|attributes|data))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Verdict:
    """What reflect learns from one attempt: `feedback` for the next prompt
    (None when the result looks right), and whether it produced rows at all."""

    feedback: str | None
    has_rows: bool


def judge(attempt: Attempt, question: str, boxes: list[Box], node_names: list[str]) -> Verdict:
    """The verdict on `attempt`; `boxes` (pandas, SQL) and `node_names`
    (networkx) are where names and values are looked up."""
    if attempt.problem is not None:
        return Verdict(attempt.problem, False)
    if attempt.error is not None:
        return Verdict(_error_feedback(attempt, boxes, node_names), False)
    rows = attempt.result or []
    if not rows:
        hints = _value_hints(attempt.code, boxes) + _graph_hints(attempt.code, node_names)
        return Verdict(" ".join(["The code ran but returned no rows.", *hints]), False)
    warning = _suspicious(attempt, question, boxes)
    return Verdict(warning, True)


def _error_feedback(attempt: Attempt, boxes: list[Box], node_names: list[str]) -> str:
    error = attempt.error
    assert error is not None
    where = f" (line {error.line})" if error.line else ""
    lines = [f"The code failed with {error.type}{where}: {error.message}"]
    if error.type == "SyntaxError" and SQL_CLAUSE_START.search(attempt.code):
        lines.append(
            "The code holds SQL clauses: write Python only, pandas operations on the BOXes "
            "(filter with frame[frame['field'] == value], join with .merge, group with "
            ".groupby), and assign the answer to `result`."
        )
    if error.type == "NoResult":
        lines.extend(_result_hint(attempt.code))
    if error.type == "CodeRejected" and FILE_READING.search(error.message) and boxes:
        names = ", ".join(box.name for box in boxes)
        lines.append(f"The data is already loaded: use the BOX variables ({names}); read no file.")
    if error.type == "TypeError" and TEXT_ARITHMETIC.search(error.message):
        lines.extend(_numeric_text_hints(attempt.code, boxes))
    missing = _missing_name(error.type, error.message)
    if missing is not None:
        lines.extend(did_you_mean(missing, boxes, node_names, attempt.code))
    else:
        lines.extend(_value_hints(attempt.code, boxes))
    return "\n".join(lines)


def _result_hint(code: str) -> list[str]:
    """How to end a program that computed something but never assigned `result`."""
    try:
        statements = ast.parse(code).body
    except SyntaxError:
        return []
    assigned = [
        target.id
        for statement in statements
        if isinstance(statement, ast.Assign)
        for target in statement.targets
        if isinstance(target, ast.Name)
    ]
    if not assigned:
        return []
    last = assigned[-1]
    return [
        f"The code computes `{last}` but never assigns `result`: add a last line "
        f"`result = ...` with the answer, for instance `result = {last}` or `result = len({last})`."
    ]


def _numeric_text_hints(code: str, boxes: list[Box]) -> list[str]:
    """For each text field the code names whose values are mostly numbers
    (databases often store them as text, with 'null' strings), how to read it
    as numbers."""
    named = set(_string_literals(code))
    hints = []
    for box in boxes:
        for column in box.frame.columns:
            series = box.frame[column]
            if str(column) not in named or not is_text(series):
                continue
            present = series.dropna()
            numbers = pd.to_numeric(present, errors="coerce").notna().sum()
            if len(present) and numbers >= NUMERIC_TEXT_SHARE * len(present):
                hints.append(
                    f"{box.name}[{str(column)!r}] holds numbers as text: compute on "
                    f"pd.to_numeric({box.name}[{str(column)!r}], errors='coerce')."
                )
    return hints


def _missing_name(error_type: str, message: str) -> str | None:
    for pattern in NAME_PATTERNS:
        match = pattern.search(message)
        if match:
            return match.group(1).split(".")[-1]
    if error_type == "KeyError":
        return message.strip().strip("\"'") or None
    return None


def did_you_mean(
    missing: str, boxes: list[Box], node_names: list[str], code: str = ""
) -> list[str]:
    """Lines naming the BOXes, fields or graph nodes closest to `missing`,
    with a few values of each field. When some BOXes have the field and
    others do not, the ones without it are named with their closest field,
    and each BOX `code` uses that lacks it gets the joins that reach it."""
    holders = [box.name for box in boxes if missing in map(str, box.frame.columns)]
    if holders:
        lines = [f"{missing!r} is a field of {', '.join(holders)} only."]
        for box in boxes:
            if box.name in holders:
                continue
            columns = [str(column) for column in box.frame.columns]
            match = process.extractOne(missing, columns, scorer=fuzz.WRatio, processor=str.casefold)
            if match is not None and match[1] >= MIN_SIMILARITY:
                lines.append(f"{box.name} has {match[0]!r} instead.")
        return [
            *lines,
            *_key_joins(missing, boxes),
            *_join_path_hints(missing, holders, boxes, code),
            *_merge_suffix_hint(missing, holders, code),
        ]
    candidates: dict[str, tuple[Box, str | None]] = {}
    for box in boxes:
        candidates[box.name] = (box, None)
        for column in box.frame.columns:
            candidates.setdefault(str(column), (box, str(column)))
            candidates[f"{box.name}.{column}"] = (box, str(column))
    lines = []
    if candidates:
        for name, _, _ in process.extract(
            missing,
            list(candidates),
            scorer=fuzz.WRatio,
            processor=str.casefold,
            limit=SUGGESTIONS,
        ):
            box, column = candidates[name]
            if column is None:
                fields = list(box.frame.columns)
                lines.append(f"Did you mean the BOX {box.name!r}? Its fields: {fields}")
            else:
                values = _distinct(box.frame[column])[:VALUES_SHOWN]
                lines.append(f"Did you mean {box.name}[{column!r}]? Some values: {_listed(values)}")
    if node_names:
        close = process.extract(missing, node_names, scorer=fuzz.WRatio, limit=SUGGESTIONS)
        lines.append(f"Nodes of the graph close to {missing!r}: {_listed(n for n, _, _ in close)}")
    return _unique(lines)


def _key_joins(field: str, boxes: list[Box]) -> list[str]:
    """The merge calls of the foreign keys that involve `field`: a join on a
    field one side lacks is usually a key whose two ends are named differently."""
    lines = []
    for box in boxes:
        for key in box.foreign_keys:
            if field in (key.field, key.ref_field) and key.field != key.ref_field:
                lines.append(
                    f"{box.name}[{key.field!r}] refers to {key.ref_box}[{key.ref_field!r}]: "
                    f"join them with {box.name}.merge({key.ref_box}, "
                    f"left_on={key.field!r}, right_on={key.ref_field!r})."
                )
    return lines


def _join_path_hints(field: str, holders: list[str], boxes: list[Box], code: str) -> list[str]:
    """For each BOX named in `code` that lacks `field`, the shortest chain of
    foreign-key joins to a BOX that has it, preferring the holders the code
    names itself (the join it meant to write)."""
    named = _named_in(code, [box.name for box in boxes])
    targets = set(holders) & set(named) or set(holders)
    hints = []
    for box in boxes:
        if box.name in holders or box.name not in named:
            continue
        path = shortest_join_path(box.name, targets, boxes)
        if path is None:
            continue
        joins = render_joins(box, path, boxes, code, field)
        hints.append(f"{box.name} has no {field!r}; the joins that reach it: {joins}.")
    return hints


def _merge_suffix_hint(field: str, holders: list[str], code: str) -> list[str]:
    """After a merge of two BOXes that both have `field`, pandas keeps it as
    `field_x` and `field_y`: the KeyError on `field` says nothing of that."""
    named = _named_in(code, holders)
    if len(named) < 2 or not MERGE_CALL.search(code):
        return []
    return [
        f"{', '.join(named[:-1])} and {named[-1]} have {field!r}: after a merge it is "
        f"{field + '_x'!r} (left) and {field + '_y'!r} (right), unless the merge is "
        f"on {field!r}; pass suffixes=('', '_right') to keep the left one as {field!r}."
    ]


def _named_in(code: str, names: list[str]) -> list[str]:
    """The BOX names `code` mentions as whole words."""
    return [name for name in names if re.search(rf"\b{re.escape(name)}\b", code)]


def _value_hints(code: str, boxes: list[Box]) -> list[str]:
    """For each text literal of `code` that is no value, field or BOX name of
    the data, the close values that exist (spelling, case, abbreviations)."""
    names = {box.name for box in boxes} | {str(c) for box in boxes for c in box.frame.columns}
    hints = []
    for literal in _string_literals(code):
        if len(literal) < 2 or literal in names:
            continue
        close = _close_values(literal, boxes)
        if close is None:
            continue
        hints.append(f"{literal!r} is not a value in the data; close values: {close}.")
    return hints


def _graph_hints(code: str, graph_names: list[str]) -> list[str]:
    """For each text literal of KG2Code that names no node or relation of the
    graph, the closest names that do."""
    if not graph_names:
        return []
    known = set(graph_names)
    hints = []
    for literal in _string_literals(code):
        if len(literal) < 2 or literal in known:
            continue
        close = [
            name
            for name, score, _ in process.extract(
                literal, graph_names, scorer=fuzz.WRatio, processor=str.casefold, limit=SUGGESTIONS
            )
            if score >= MIN_SIMILARITY
        ]
        if close:
            hints.append(
                f"{literal!r} is no node or relation of the graph; close: {_listed(close)}."
            )
    return hints


def _close_values(literal: str, boxes: list[Box]) -> str | None:
    found = []
    for box in boxes:
        for column in box.frame.columns:
            series = box.frame[column]
            if not is_text(series):
                continue
            values = [str(value) for value in _distinct(series)[:MAX_DISTINCT_SCANNED]]
            if literal in values:
                return None  # the literal exists: nothing to suggest
            for value, score, _ in process.extract(
                literal, values, scorer=fuzz.WRatio, processor=str.casefold, limit=2
            ):
                if score >= MIN_SIMILARITY:
                    found.append((score, f"{box.name}[{str(column)!r}] has {value!r}"))
    if not found:
        return None
    found.sort(key=lambda item: -item[0])
    return "; ".join(text for _, text in found[:SUGGESTIONS])


def _suspicious(attempt: Attempt, question: str, boxes: list[Box]) -> str | None:
    rows = attempt.result or []
    empty_columns = [
        name
        for index, name in enumerate(attempt.columns)
        if all(index < len(row) and row[index] is None for row in rows)
    ]
    if empty_columns:
        return (
            f"The result's columns {empty_columns} hold only missing values: the code "
            "probably reads a wrong field or joins on fields that do not match."
        )
    total = attempt.total_rows or len(rows)
    largest = max((len(box.frame) for box in boxes), default=0)
    joins = re.search(r"\bmerge\(|\bjoin\b|\.join\(", attempt.code, re.IGNORECASE)
    if joins and largest and total > largest:
        return (
            f"The result has {total} rows, more than the largest BOX ({largest} rows): "
            "a join probably duplicates rows; join on key fields and drop duplicates."
        )
    distinct = len({tuple(map(str, row)) for row in rows})
    if len(rows) >= DUPLICATES_MIN_ROWS and distinct * 2 <= len(rows):
        return (
            f"The result repeats rows ({len(rows)} rows, {distinct} distinct): BOXes repeat "
            "an entity once per value of a multi-valued field; use .drop_duplicates() or "
            ".unique() on the answer."
        )
    if COUNT_QUESTION.search(question) and not GROUPING_WORDS.search(question) and total > 1:
        return (
            f"The question asks for a count, but the result has {total} rows: "
            "return the count as a single number."
        )
    if len(attempt.columns) >= WIDE_RESULT_COLUMNS and not WHOLE_ROWS_WORDS.search(question):
        shown = ", ".join(map(repr, attempt.columns[:8])) + (
            ", ..." if len(attempt.columns) > 8 else ""
        )
        return (
            f"The result has {len(attempt.columns)} columns ({shown}): select only "
            "the fields the question asks for, e.g. result = frame[['field']]."
        )
    return None


def _string_literals(code: str) -> list[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [text.replace("''", "'") for text in SQL_STRING.findall(code)]
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _distinct(series: pd.Series) -> list[object]:
    return list(series.dropna().drop_duplicates().head(MAX_DISTINCT_SCANNED))


def _listed(values: Iterable[object]) -> str:
    return ", ".join(repr(value) for value in values)


def _unique(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(lines))
