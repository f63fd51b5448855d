"""Repairing an unknown BOX or field in a pandas program with Python's `ast`:
a misspelt BOX name, a misspelt field (in a subscript or as an attribute),
and a `merge(on=key)` whose key only one side has, rewritten along the
foreign key the two BOXes declare."""

from __future__ import annotations

import ast
import re

from agent.repair import Repair
from agent.repair.names import folded, nearest_name
from plugins import Box

UNDEFINED_NAME = re.compile(r"name '(\w+)' is not defined")
MISSING_ATTRIBUTE = re.compile(r"'DataFrame' object has no attribute '([^']+)'")
Edit = tuple[int, int, str]
"""Replace the UTF-8 bytes [start, end) of the program by a text."""


def repair_pandas(code: str, error_type: str, message: str, boxes: list[Box]) -> Repair | None:
    """`code` with the BOX or field `message` names replaced, or None when
    that is not clear."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    by_name = {box.name: box for box in boxes}
    if error_type == "NameError":
        match = UNDEFINED_NAME.search(message)
        return _rename_box(code, tree, match.group(1), by_name) if match else None
    if error_type == "AttributeError":
        match = MISSING_ATTRIBUTE.search(message)
        return _field_attribute(code, tree, match.group(1), by_name) if match else None
    if error_type == "KeyError":
        missing = message.strip().strip("\"'")
        merged = _merge_on_foreign_key(code, tree, missing, by_name)
        return merged or _rename_field(code, tree, missing, by_name)
    return None


def _rename_box(
    code: str, tree: ast.Module, missing: str, by_name: dict[str, Box]
) -> Repair | None:
    assigned = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }
    replacement = nearest_name(missing, by_name)
    if replacement is None or missing in assigned:
        return None
    edits = [
        (*source_span(code, node), replacement)
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id == missing
    ]
    return Repair(apply_edits(code, edits), (f"BOX {missing} -> {replacement}",))


def _rename_field(
    code: str, tree: ast.Module, missing: str, by_name: dict[str, Box]
) -> Repair | None:
    replacement = _nearest_field(tree, missing, by_name)
    if replacement is None:
        return None
    edits = [
        (*source_span(code, node), repr(replacement))
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value == missing
    ]
    if not edits:
        return None
    return Repair(apply_edits(code, edits), (f"field {missing!r} -> {replacement!r}",))


def _field_attribute(
    code: str, tree: ast.Module, missing: str, by_name: dict[str, Box]
) -> Repair | None:
    replacement = _nearest_field(tree, missing, by_name)
    if replacement is None:
        return None
    edits = [
        (*source_span(code, node), f"{ast.get_source_segment(code, node.value)}[{replacement!r}]")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == missing
    ]
    return Repair(apply_edits(code, edits), (f"field .{missing} -> [{replacement!r}]",))


def _nearest_field(tree: ast.Module, missing: str, by_name: dict[str, Box]) -> str | None:
    """The one field of the BOXes the program reads nearest to `missing`;
    None when a BOX it does not read has the field (a join is missing)."""
    named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    read = [box for name, box in by_name.items() if name in named] or list(by_name.values())
    others = [box for box in by_name.values() if box not in read]
    if any(folded(missing) in map(folded, _fields(box)) for box in others):
        return None
    return nearest_name(missing, [field for box in read for field in _fields(box)])


def _merge_on_foreign_key(
    code: str, tree: ast.Module, key: str, by_name: dict[str, Box]
) -> Repair | None:
    """`left.merge(right, on=key)` (or `pd.merge(left, right, on=key)`) with
    `key` on one side only, rewritten as `left_on=..., right_on=...` along the
    foreign key between the two BOXes."""
    for call in (node for node in ast.walk(tree) if isinstance(node, ast.Call)):
        sides = _merge_sides(call)
        keyword = next((k for k in call.keywords if k.arg == "on"), None)
        if sides is None or keyword is None:
            continue
        if not (isinstance(keyword.value, ast.Constant) and keyword.value.value == key):
            continue
        left, right = (by_name.get(side) for side in sides)
        if left is None or right is None:
            continue
        ends = _foreign_key_ends(left, right, key)
        if ends is None:
            continue
        rewritten = f"left_on={ends[0]!r}, right_on={ends[1]!r}"
        change = f"merge on {key!r} -> left_on={ends[0]!r}, right_on={ends[1]!r}"
        return Repair(apply_edits(code, [(*source_span(code, keyword), rewritten)]), (change,))
    return None


def _merge_sides(call: ast.Call) -> tuple[str, str] | None:
    """The two BOX names a merge call joins, when both are plain names."""
    function = call.func
    if not (isinstance(function, ast.Attribute) and function.attr == "merge"):
        return None
    arguments = [argument for argument in call.args if isinstance(argument, ast.Name)]
    if isinstance(function.value, ast.Name) and function.value.id == "pd":
        return (arguments[0].id, arguments[1].id) if len(arguments) >= 2 else None
    if isinstance(function.value, ast.Name) and arguments:
        return function.value.id, arguments[0].id
    return None


def _foreign_key_ends(left: Box, right: Box, key: str) -> tuple[str, str] | None:
    """(left field, right field) of the declared foreign key between the two
    BOXes that has `key` at one end, when `key` is a field of one side only."""
    left_fields, right_fields = set(_fields(left)), set(_fields(right))
    if (key in left_fields) == (key in right_fields):
        return None
    for foreign_key in left.foreign_keys:
        if foreign_key.ref_box == right.name and key in (foreign_key.field, foreign_key.ref_field):
            return foreign_key.field, foreign_key.ref_field
    for foreign_key in right.foreign_keys:
        if foreign_key.ref_box == left.name and key in (foreign_key.field, foreign_key.ref_field):
            return foreign_key.ref_field, foreign_key.field
    return None


def source_span(code: str, node: ast.AST) -> tuple[int, int]:
    """The UTF-8 byte offsets of `node` in `code` (ast counts columns in bytes)."""
    lines = code.encode().splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    start = starts[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
    end = starts[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
    return start, end


def apply_edits(code: str, edits: list[Edit]) -> str:
    """`code` with the edits made, from the last to the first."""
    encoded = code.encode()
    for start, end, text in sorted(set(edits), reverse=True):
        encoded = encoded[:start] + text.encode() + encoded[end:]
    return encoded.decode()


def _fields(box: Box) -> list[str]:
    return [str(column) for column in box.frame.columns]
