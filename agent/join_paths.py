"""Join paths between BOXes: the chain of foreign keys that takes a BOX to a
field it lacks, written out as the joins that reach it.

Small models treat a key two joins away as a field of the BOX at hand
(`Medal['athlete_id']` when medals reach athletes only through Format and
Tournament). Naming the field's owner is not enough for them; the feedback
that spells out the whole chain, in the language of the failed attempt, is
what the next attempt can copy.
"""

from __future__ import annotations

import ast
from collections import deque

from plugins import Box
from plugins.foreign_key_links import Link, links_by_start
from plugins.sql_schema.ddl import quote_identifier

MAX_JOINS = 4


def shortest_join_path(start: str, targets: set[str], boxes: list[Box]) -> list[Link] | None:
    """The fewest foreign-key joins (at most MAX_JOINS) from BOX `start` to any
    BOX of `targets`, following keys in both directions; None when no chain
    connects them. Ties go to the BOX listed first."""
    links = _links(boxes)
    paths: dict[str, list[Link]] = {start: []}
    queue = deque([start])
    while queue:
        name = queue.popleft()
        if name in targets and name != start:
            return paths[name]
        if len(paths[name]) == MAX_JOINS:
            continue
        for link in links.get(name, []):
            if link.to_box not in paths:
                paths[link.to_box] = [*paths[name], link]
                queue.append(link.to_box)
    return None


def render_joins(start: Box, path: list[Link], boxes: list[Box], code: str, field: str) -> str:
    """The joins of `path` as a pandas merge chain when `code` is Python, else
    as SQL JOIN clauses, and what `field` of the last BOX is called after them."""
    end = path[-1].to_box
    if not is_python(code):
        return f"{_sql_joins(start.name, path)}, then use {end}.{_sql_name(field)}"
    chain, names = _pandas_chain(start, path, {box.name: box for box in boxes})
    renamed = [
        f"{box}[{original!r}] is {name!r}"
        for (box, original), name in names.items()
        if name != original
    ]
    text = f"{chain}, then use the field {names[(end, field)]!r}"
    return f"{text} ({'; '.join(renamed)})" if renamed else text


def _links(boxes: list[Box]) -> dict[str, list[Link]]:
    keys = (
        Link(box.name, key.field, key.ref_box, key.ref_field)
        for box in boxes
        for key in box.foreign_keys
    )
    return links_by_start(keys, {box.name for box in boxes}, both_directions=True)


def _pandas_chain(
    start: Box, path: list[Link], by_name: dict[str, Box]
) -> tuple[str, dict[tuple[str, str], str]]:
    """`start.merge(...).merge(...)` and the name every (BOX, field) gets in
    its result. The suffixes keep every earlier field's name: a field of a
    later BOX whose name is taken gets `_<BOX>` appended, as pandas does with
    these suffixes."""
    current = {(start.name, str(column)): str(column) for column in start.frame.columns}
    taken = set(current.values())
    text = start.name
    for link in path:
        right = by_name[link.to_box]
        left_name = current[(link.from_box, link.from_field)]
        merged_key = left_name == link.to_field
        keys = f"on={left_name!r}"
        if not merged_key:
            keys = f"left_on={left_name!r}, right_on={link.to_field!r}"
        renamed = False
        for column in map(str, right.frame.columns):
            if merged_key and column == link.to_field:
                current[(right.name, column)] = column
            elif column in taken:
                current[(right.name, column)] = f"{column}_{right.name}"
                renamed = True
            else:
                current[(right.name, column)] = column
        taken.update(current[(right.name, str(column))] for column in right.frame.columns)
        suffixes = f", suffixes=('', '_{right.name}')" if renamed else ""
        text += f".merge({right.name}, {keys}{suffixes})"
    return text, current


def _sql_joins(start: str, path: list[Link]) -> str:
    clauses = [f"FROM {start}"]
    for link in path:
        clauses.append(
            f"JOIN {link.to_box} ON {link.from_box}.{_sql_name(link.from_field)} = "
            f"{link.to_box}.{_sql_name(link.to_field)}"
        )
    return " ".join(clauses)


def _sql_name(name: str) -> str:
    return name if name.isidentifier() else quote_identifier(name)


def is_python(code: str) -> bool:
    """True when `code` parses as Python (else it is taken for SQL)."""
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True
