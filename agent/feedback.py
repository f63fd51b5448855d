"""Execution guidance: what the next prompt is told about a program that
failed or whose result looks wrong.

Beyond the interpreter's message, it answers the most common failure of
models in this field, invented names: a missing BOX, field or table gets
"did you mean" with a few values of the nearest fields, and a text value that
matches nothing in the data gets the close values that do exist, and a
program that tries to read a file is told the BOXes are loaded. It also
flags results that ran but look wrong: no rows, columns with only missing
values, more rows than any BOX after a join, the same rows over and over,
many rows for a "how many", whole rows where the question asks for a field,
a table's closing total row taken for one more row.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import pandas as pd
from rapidfuzz import fuzz, process

from agent.feedback_budget import (
    MATCH_CHARS,
    NAME_CHARS,
    ROWS_SCANNED,
    Deadline,
    FeedbackLimits,
    comparable,
    cut,
    fit,
    shown_items,
    shown_name,
    shown_value,
)
from agent.feedback_scope import boxes_read, elsewhere_hints, holds_a_graph, sql_on_graph_hint
from agent.join_paths import render_joins, shortest_join_path
from agent.state import Attempt
from plugins import Box, Source
from plugins.loaders.cell_types import is_text
from plugins.total_rows import find_total_row

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
OTHER_BOX_SIMILARITY = 75
MAX_LITERALS = 20
ERROR_MESSAGE_CHARS = 1_000
DEFAULT_LIMITS = FeedbackLimits()
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


@dataclass
class _Search:
    """One judgement's inputs and bounds: where names and values are looked
    up, the sources around them, and the deadline of the search."""

    boxes: list[Box]
    node_names: list[str]
    sources: Sequence[Source]
    other_sources: Sequence[Source]
    deadline: Deadline
    text_values: dict[tuple[str, str], tuple[set[str], list[str], list[str]]] = field(
        default_factory=dict
    )


def judge(
    attempt: Attempt,
    question: str,
    boxes: list[Box],
    node_names: list[str],
    *,
    limits: FeedbackLimits = DEFAULT_LIMITS,
    sources: Sequence[Source] = (),
    other_sources: Sequence[Source] = (),
) -> Verdict:
    """The verdict on `attempt`; `boxes` (pandas, SQL) and `node_names`
    (networkx) are where names and values are looked up. `sources` are the
    workspace's sources, `other_sources` those the caller knows but the
    program does not run on (a name missing here may be one of them). The
    search for hints stops after `limits.seconds` and the text holds at most
    `limits.max_chars` characters, whatever the data."""
    search = _Search(boxes, node_names, sources, other_sources, Deadline(limits.seconds))
    if attempt.problem is not None:
        return Verdict(fit(attempt.problem, limits.max_chars), False)
    if attempt.error is not None:
        return Verdict(_bounded(_error_feedback(attempt, search), search, limits), False)
    rows = attempt.result or []
    if not rows:
        hints = _value_hints(attempt.code, search) + _graph_hints(attempt.code, search)
        text = " ".join(["The code ran but returned no rows.", *hints])
        return Verdict(_bounded(text, search, limits), False)
    warning = _suspicious(attempt, question, boxes)
    return Verdict(None if warning is None else fit(warning, limits.max_chars), True)


def _bounded(text: str, search: _Search, limits: FeedbackLimits) -> str:
    if search.deadline.reached:
        text += f"\n(The search for hints stopped after {limits.seconds:g} s.)"
    return fit(text, limits.max_chars)


def _error_feedback(attempt: Attempt, search: _Search) -> str:
    error = attempt.error
    assert error is not None
    boxes = search.boxes
    where = f" (line {error.line})" if error.line else ""
    message = cut(error.message, ERROR_MESSAGE_CHARS)
    lines = [f"The code failed with {cut(error.type, NAME_CHARS)}{where}: {message}"]
    if error.type == "SyntaxError" and SQL_CLAUSE_START.search(attempt.code):
        if holds_a_graph(search.sources, boxes, search.node_names):
            lines.append("The code holds SQL clauses. " + sql_on_graph_hint(not boxes))
        else:
            lines.append(
                "The code holds SQL clauses: write Python only, pandas operations on the BOXes "
                "(filter with frame[frame['field'] == value], join with .merge, group with "
                ".groupby), and assign the answer to `result`."
            )
    if error.type == "NoResult":
        lines.extend(_result_hint(attempt.code))
    if error.type == "CodeRejected" and FILE_READING.search(error.message) and boxes:
        names = shown_items((box.name for box in boxes), limit=len(boxes)).replace("'", "")
        lines.append(f"The data is already loaded: use the BOX variables ({names}); read no file.")
    if error.type == "TypeError" and TEXT_ARITHMETIC.search(error.message):
        lines.extend(_numeric_text_hints(attempt.code, search))
    missing = missing_name(error.type, error.message)
    if missing is not None:
        lines.extend(_did_you_mean(missing, attempt.code, search))
    else:
        lines.extend(_value_hints(attempt.code, search))
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
    last = cut(assigned[-1], NAME_CHARS)
    return [
        f"The code computes `{last}` but never assigns `result`: add a last line "
        f"`result = ...` with the answer, for instance `result = {last}` or `result = len({last})`."
    ]


def _numeric_text_hints(code: str, search: _Search) -> list[str]:
    """For each text field the code names whose values are mostly numbers
    (databases often store them as text, with 'null' strings), how to read it
    as numbers."""
    named = set(_string_literals(code))
    hints = []
    for box in search.boxes:
        for column in box.frame.columns:
            if str(column) not in named or search.deadline.passed():
                continue
            series = box.frame[column].head(ROWS_SCANNED)
            if not is_text(series):
                continue
            present = series.dropna()
            numbers = pd.to_numeric(present, errors="coerce").notna().sum()
            if len(present) and numbers >= NUMERIC_TEXT_SHARE * len(present):
                field_text = f"{box.name}[{shown_name(column)}]"
                hints.append(
                    f"{field_text} holds numbers as text: compute on "
                    f"pd.to_numeric({field_text}, errors='coerce')."
                )
    return hints


def missing_name(error_type: str, message: str) -> str | None:
    """The unknown BOX, field, table or column an error complains about, or None."""
    for pattern in NAME_PATTERNS:
        match = pattern.search(message)
        if match:
            return match.group(1).split(".")[-1]
    if error_type == "KeyError":
        return message.strip().strip("\"'") or None
    return None


def did_you_mean(
    missing: str,
    boxes: list[Box],
    node_names: list[str],
    code: str = "",
    limits: FeedbackLimits = DEFAULT_LIMITS,
) -> list[str]:
    """Lines naming the BOXes, fields or graph nodes closest to `missing`,
    with a few values of each field, searched within `limits.seconds`.
    Fields are searched in the BOXes `code` reads (all of them, said so,
    when it names none). When some BOXes have the field and others do not,
    the ones without it are named with their closest field, and each BOX
    `code` uses that lacks it gets the joins that reach it."""
    search = _Search(boxes, node_names, (), (), Deadline(limits.seconds))
    return _did_you_mean(missing, code, search)


def _did_you_mean(missing: str, code: str, search: _Search) -> list[str]:
    boxes = search.boxes
    holders = [box.name for box in boxes if missing in map(str, box.frame.columns)]
    if holders:
        return _holder_hints(missing, holders, code, search)
    lines = elsewhere_hints(missing, code, search.sources, search.other_sources)
    read = boxes_read(code, [box.name for box in boxes])
    searched = [box for box in boxes if box.name in read] or boxes
    matches = _closest(missing, _candidates(boxes, searched), SUGGESTIONS)
    for box, column in matches:
        if column is None:
            lines.append(f"Did you mean the BOX {shown_name(box.name)}? Its fields: {_fields(box)}")
        else:
            values = _distinct(box.frame[column])[:VALUES_SHOWN]
            lines.append(
                f"Did you mean {box.name}[{shown_name(column)}]? Some values: {_listed(values)}"
            )
    if not read and any(column is not None for _, column in matches):
        lines.append("(The code reads no BOX by name: these fields come from all BOXes.)")
    if read and not any(column is not None for _, column in matches):
        for box in searched:
            lines.append(
                f"{box.name} has no field {shown_name(missing)}; its fields: {_fields(box)}"
            )
        others = [box for box in boxes if box.name not in read]
        close = _closest(missing, _candidates([], others), SUGGESTIONS, OTHER_BOX_SIMILARITY)
        if close:
            named = ", ".join(f"{box.name}[{shown_name(column)}]" for box, column in close)
            lines.append(
                f"Close fields of BOXes the code does not read: {named} (join them first)."
            )
    if search.node_names and not search.deadline.passed():
        close_nodes = process.extract(
            comparable(missing),
            search.node_names,
            scorer=fuzz.WRatio,
            processor=comparable,
            limit=SUGGESTIONS,
        )
        lines.append(
            f"Nodes of the graph close to {shown_name(missing)}: "
            f"{_listed(name for name, _, _ in close_nodes)}"
        )
    return _unique(lines)


def _holder_hints(missing: str, holders: list[str], code: str, search: _Search) -> list[str]:
    boxes = search.boxes
    lines = [
        f"{shown_name(missing)} is a field of {shown_items(holders).replace(chr(39), '')} only."
    ]
    for box in boxes:
        if box.name in holders or search.deadline.passed():
            continue
        match = _closest(missing, _candidates([], [box]), 1)
        if match:
            lines.append(f"{box.name} has {shown_name(match[0][1])} instead.")
    return [
        *lines,
        *_key_joins(missing, boxes),
        *_join_path_hints(missing, holders, boxes, code),
        *_merge_suffix_hint(missing, holders, code),
    ]


def _candidates(
    boxes: list[Box], field_boxes: list[Box]
) -> dict[str, list[tuple[Box, str | None]]]:
    """Names to match a missing name against: every BOX name of `boxes`,
    and the fields of `field_boxes` (bare, naming every BOX that has it, and
    as `box.field`)."""
    candidates: dict[str, list[tuple[Box, str | None]]] = {box.name: [(box, None)] for box in boxes}
    for box in field_boxes:
        for column in map(str, box.frame.columns):
            candidates.setdefault(column, []).append((box, column))
            candidates[f"{box.name}.{column}"] = [(box, column)]
    return candidates


def _closest(
    missing: str,
    candidates: dict[str, list[tuple[Box, str | None]]],
    limit: int,
    cutoff: float = MIN_SIMILARITY,
) -> list[tuple[Box, str | None]]:
    """The (BOX, field) pairs whose names are closest to `missing`, at least
    `cutoff` similar, each pair once."""
    if not candidates:
        return []
    names = list(candidates)
    keys = [comparable(name) for name in names]
    found = process.extract(
        comparable(missing),
        keys,
        scorer=fuzz.WRatio,
        processor=None,
        limit=limit * 3,
        score_cutoff=cutoff,
    )
    pairs: dict[tuple[str, str | None], tuple[Box, str | None]] = {}
    for _, _, index in found:
        for box, column in candidates[names[index]]:
            pairs.setdefault((box.name, column), (box, column))
    return list(pairs.values())[:limit]


def _fields(box: Box) -> str:
    return "[" + shown_items(box.frame.columns) + "]"


def _key_joins(field_name: str, boxes: list[Box]) -> list[str]:
    """The merge calls of the foreign keys that involve `field_name`: a join on a
    field one side lacks is usually a key whose two ends are named differently."""
    lines = []
    for box in boxes:
        for key in box.foreign_keys:
            if field_name in (key.field, key.ref_field) and key.field != key.ref_field:
                left, right = shown_name(key.field), shown_name(key.ref_field)
                lines.append(
                    f"{box.name}[{left}] refers to {key.ref_box}[{right}]: "
                    f"join them with {box.name}.merge({key.ref_box}, "
                    f"left_on={left}, right_on={right})."
                )
    return lines


def _join_path_hints(field_name: str, holders: list[str], boxes: list[Box], code: str) -> list[str]:
    """For each BOX named in `code` that lacks `field_name`, the shortest chain of
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
        joins = render_joins(box, path, boxes, code, field_name)
        hints.append(
            f"{box.name} has no {shown_name(field_name)}; the joins that reach it: {joins}."
        )
    return hints


def _merge_suffix_hint(field_name: str, holders: list[str], code: str) -> list[str]:
    """After a merge of two BOXes that both have `field_name`, pandas keeps it as
    `field_x` and `field_y`: the KeyError on `field_name` says nothing of that."""
    named = _named_in(code, holders)
    if len(named) < 2 or not MERGE_CALL.search(code):
        return []
    quoted = shown_name(field_name)
    return [
        f"{', '.join(named[:-1])} and {named[-1]} have {quoted}: after a merge it is "
        f"{shown_name(field_name + '_x')} (left) and {shown_name(field_name + '_y')} (right), "
        f"unless the merge is on {quoted}; pass suffixes=('', '_right') to keep the left one "
        f"as {quoted}."
    ]


def _named_in(code: str, names: list[str]) -> list[str]:
    """The BOX names `code` mentions as whole words."""
    return [name for name in names if re.search(rf"\b{re.escape(name)}\b", code)]


def _value_hints(code: str, search: _Search) -> list[str]:
    """For each text literal of `code` that is no value, field or BOX name of
    the data, the close values that exist (spelling, case, abbreviations)."""
    boxes = search.boxes
    names = {box.name for box in boxes} | {str(c) for box in boxes for c in box.frame.columns}
    fields = _fields_named_first(code, boxes)
    hints = []
    for literal in _string_literals(code)[:MAX_LITERALS]:
        if not 2 <= len(literal) <= MATCH_CHARS or literal in names:
            continue
        close = _close_values(literal, fields, search)
        if search.deadline.reached:
            break
        if close is None:
            continue
        hints.append(f"{shown_value(literal)} is not a value in the data; close values: {close}.")
    return hints


def _graph_hints(code: str, search: _Search) -> list[str]:
    """For each text literal of KG2Code that names no node or relation of the
    graph, the closest names that do."""
    graph_names = search.node_names
    if not graph_names:
        return []
    known = set(graph_names)
    keys = [comparable(name) for name in graph_names]
    hints = []
    for literal in _string_literals(code)[:MAX_LITERALS]:
        if not 2 <= len(literal) <= MATCH_CHARS or literal in known or search.deadline.passed():
            continue
        close = [
            graph_names[index]
            for _, _, index in process.extract(
                comparable(literal),
                keys,
                scorer=fuzz.WRatio,
                processor=None,
                limit=SUGGESTIONS,
                score_cutoff=MIN_SIMILARITY,
            )
        ]
        if close:
            hints.append(
                f"{shown_value(literal)} is no node or relation of the graph; "
                f"close: {_listed(close)}."
            )
    return hints


def _fields_named_first(code: str, boxes: list[Box]) -> list[tuple[Box, str]]:
    """Every (BOX, field), those `code` names first: the value a mistyped
    literal meant is most likely in a field next to it, and the search may
    run out of time before it reaches the others."""
    named = set(_string_literals(code)) | set(re.findall(r"\w+", code))
    fields = [(box, str(column)) for box in boxes for column in box.frame.columns]
    return sorted(fields, key=lambda pair: pair[1] not in named)


def _close_values(literal: str, fields: list[tuple[Box, str]], search: _Search) -> str | None:
    found = []
    key = comparable(literal)
    for box, column in fields:
        if search.deadline.passed():
            break
        column_values = _text_values(box, column, search)
        if column_values is None:
            continue
        exact, values, keys = column_values
        if literal in exact:
            return None  # the literal exists: nothing to suggest
        for _, score, index in process.extract(
            key,
            keys,
            scorer=fuzz.WRatio,
            processor=None,
            limit=2,
            score_cutoff=MIN_SIMILARITY,
        ):
            found.append(
                (score, f"{box.name}[{shown_name(column)}] has {shown_value(values[index])}")
            )
    if not found:
        return None
    found.sort(key=lambda item: -item[0])
    return "; ".join(text for _, text in found[:SUGGESTIONS])


def _text_values(
    box: Box, column: str, search: _Search
) -> tuple[set[str], list[str], list[str]] | None:
    """The distinct text values of a field (read once per judgement): as a
    set, as a list, and as the keys fuzzy matching compares; None for a
    field that is not text."""
    cache_key = (box.name, column)
    if cache_key not in search.text_values:
        series = box.frame[column].head(ROWS_SCANNED)
        if not is_text(series):
            return None
        values = [str(value) for value in _distinct(series)]
        search.text_values[cache_key] = (set(values), values, [comparable(v) for v in values])
    return search.text_values[cache_key]


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
    total_row = _total_row_in_result(rows, question, boxes)
    if total_row is not None:
        return total_row
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


def _total_row_in_result(rows: list[list[object]], question: str, boxes: list[Box]) -> str | None:
    """A warning when the result names a BOX's closing total row
    (`plugins.total_rows`) and the question does not: "which nation won the
    most silver medals?" answered "Total" ranks the row that adds up the
    others."""
    cells = {cell.strip().casefold() for row in rows for cell in row if isinstance(cell, str)}
    if not cells:
        return None  # a label is text: most results (numbers) need no look at the BOXes
    for box in boxes:
        total_row = find_total_row(box.frame)
        if total_row is None or total_row.label.casefold() not in cells:
            continue
        if total_row.label.strip(" :*").casefold().removesuffix("s") in question.casefold():
            continue
        return (
            f"The result holds {total_row.label!r}, the label of the last row of {box.name}, "
            "which adds up the rows above it: leave out the row where "
            f"{total_row.label_column!r} is {total_row.label!r}."
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
    """The first distinct values of a field, from its first ROWS_SCANNED rows."""
    return list(series.head(ROWS_SCANNED).dropna().drop_duplicates().head(MAX_DISTINCT_SCANNED))


def _listed(values: Iterable[object]) -> str:
    return ", ".join(shown_value(value) for value in values)


def _unique(lines: list[str]) -> list[str]:
    return list(dict.fromkeys(lines))
