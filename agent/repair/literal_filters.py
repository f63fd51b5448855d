"""Finding where a program compares a text column with a text literal, and
writing the literal back changed: SQL through sqlglot's tree (`col = 'x'`,
`col IN ('x', 'y')`), pandas through Python's `ast` (`box['col'] == 'x'`,
`box.col == 'x'`, `box['col'].isin(['x', 'y'])`).

A comparison counts only when its column belongs to exactly one BOX
(table) of the data as the program reads it; a column the program computes
itself (a SQL subquery or CTE, a pandas assignment) is left alone, since its
values need not be the data's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

import sqlglot
from sqlglot import exp

from agent.repair.pandas import apply_edits, source_span
from plugins import Box


@dataclass(frozen=True)
class TextFilter:
    """A text literal of the program compared with a field of a BOX."""

    box: Box
    column: str
    literal: str


class SqlFilters:
    """The text filters of one SQL query, and the query with literals replaced."""

    def __init__(self, tree: exp.Expression, boxes: list[Box], dialect: str) -> None:
        self._tree = tree
        self._dialect = dialect
        by_name = {box.name.casefold(): box for box in boxes}
        computed = {cte.alias_or_name.casefold() for cte in tree.find_all(exp.CTE)}
        self._sites: list[exp.Literal] = []
        self.filters: list[TextFilter] = []
        for column, literal in _sql_comparisons(tree):
            found = _sql_field(column, by_name, computed)
            if found is not None:
                self._sites.append(literal)
                self.filters.append(TextFilter(found[0], found[1], literal.this))

    def rewritten(self, values: dict[int, str]) -> str:
        """The query with filter number i's literal replaced by `values[i]`
        (sqlglot quotes it for the dialect)."""
        for index, value in values.items():
            self._sites[index].replace(exp.Literal.string(value))
        return self._tree.sql(dialect=self._dialect)


class PandasFilters:
    """The text filters of one pandas program, and the program with literals replaced."""

    def __init__(self, code: str, tree: ast.Module, boxes: list[Box]) -> None:
        self._code = code
        by_name = {box.name: box for box in boxes}
        named = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        read = [box for name, box in by_name.items() if name in named]
        computed = _assigned_fields(tree)
        self._sites: list[ast.Constant] = []
        self.filters: list[TextFilter] = []
        for frame, column, literal in _pandas_comparisons(tree):
            if column in computed:
                continue
            box = _pandas_box(frame, column, by_name, read)
            if box is not None:
                self._sites.append(literal)
                self.filters.append(TextFilter(box, column, literal.value))

    def rewritten(self, values: dict[int, str]) -> str:
        """The program with filter number i's literal replaced by `values[i]`
        (written as Python's repr, which quotes anything)."""
        edits = [
            (*source_span(self._code, self._sites[index]), repr(value))
            for index, value in values.items()
        ]
        return apply_edits(self._code, edits)


def program_filters(
    code: str, language: str, boxes: list[Box], dialect: str
) -> SqlFilters | PandasFilters | None:
    """The text filters of `code` (`language` sql or python), or None when
    it does not parse or is neither."""
    if language == "sql":
        try:
            tree = sqlglot.parse_one(code, read=dialect or None)
        except sqlglot.errors.SqlglotError:
            return None
        return SqlFilters(tree, boxes, dialect)
    if language == "python":
        try:
            module = ast.parse(code)
        except SyntaxError:
            return None
        return PandasFilters(code, module, boxes)
    return None


def _sql_comparisons(tree: exp.Expression) -> Iterator[tuple[exp.Column, exp.Literal]]:
    """(column, text literal) of each `column = 'x'` (either way round) and
    each text item of `column IN (...)`."""
    for comparison in tree.find_all(exp.EQ, exp.In):
        if isinstance(comparison, exp.EQ):
            sides = (comparison.this, comparison.expression)
            for column, literal in (sides, sides[::-1]):
                if isinstance(column, exp.Column) and _is_text_literal(literal):
                    yield column, literal
        elif isinstance(comparison.this, exp.Column):
            for item in comparison.expressions:
                if _is_text_literal(item):
                    yield comparison.this, item


def _is_text_literal(node: exp.Expression) -> bool:
    return isinstance(node, exp.Literal) and node.is_string


def _sql_field(
    column: exp.Column, by_name: dict[str, Box], computed: set[str]
) -> tuple[Box, str] | None:
    """The BOX and its field a column of a query names, from the tables its
    own SELECT reads; None when one of them is a subquery or a CTE (unless
    the column is qualified by a real table) or two tables have the field."""
    select = column.find_ancestor(exp.Select)
    if select is None:
        return None
    scope: dict[str, Box | None] = {}
    sources = [select.args.get("from_"), *(select.args.get("joins") or [])]
    for source in (item.this for item in sources if item is not None):
        table = source.name.casefold() if isinstance(source, exp.Table) else ""
        box = None if table in computed else by_name.get(table)
        scope[source.alias_or_name.casefold()] = box
    if column.table:
        candidates = [scope.get(column.table.casefold())]
    elif None in scope.values():
        return None
    else:
        candidates = list(scope.values())
    fields = [
        (box, str(field))
        for box in candidates
        if box is not None
        for field in box.frame.columns
        if str(field).casefold() == column.name.casefold()
    ]
    return fields[0] if len(fields) == 1 else None


def _pandas_comparisons(tree: ast.Module) -> Iterator[tuple[str | None, str, ast.Constant]]:
    """(frame name or None, field, text literal) of each `frame['field'] ==
    'x'` or `frame.field == 'x'` (either way round) and each text item of
    `frame['field'].isin([...])`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq):
            sides = (node.left, node.comparators[0])
            for field_side, literal in (sides, sides[::-1]):
                reference = _field_reference(field_side)
                text = _text_of(literal)
                if reference is not None and text is not None:
                    assert isinstance(literal, ast.Constant)
                    yield (*reference, literal)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "isin"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.List | ast.Tuple | ast.Set)
        ):
            reference = _field_reference(node.func.value)
            items = node.args[0].elts if reference is not None else []
            for item in items:
                if isinstance(item, ast.Constant) and _text_of(item) is not None:
                    assert reference is not None
                    yield (*reference, item)


def _text_of(node: ast.expr) -> str | None:
    """The text of a string constant, None for any other node."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _field_reference(node: ast.expr) -> tuple[str | None, str] | None:
    """(frame name or None, field) of `frame['field']` or `frame.field`."""
    field = _text_of(node.slice) if isinstance(node, ast.Subscript) else None
    if isinstance(node, ast.Subscript) and field is not None:
        frame = node.value.id if isinstance(node.value, ast.Name) else None
        return frame, field
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    return None


def _pandas_box(
    frame: str | None, column: str, by_name: dict[str, Box], read: list[Box]
) -> Box | None:
    """The BOX a pandas comparison reads `column` of: the BOX named
    `frame`, else the one BOX the program reads (else of all) that has it."""
    if frame in by_name:
        box = by_name[frame]
        return box if column in map(str, box.frame.columns) else None
    for boxes in (read, list(by_name.values())):
        holders = [box for box in boxes if column in map(str, box.frame.columns)]
        if holders:
            return holders[0] if len(holders) == 1 else None
    return None


def _assigned_fields(tree: ast.Module) -> set[str]:
    """Fields the program writes itself (`frame['field'] = ...`,
    `.assign(field=...)`, `.rename(columns={...: 'field'})`): their values
    need not be the data's."""
    fields: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            fields.add(_text_of(node.slice))
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr == "assign":
            fields.update(keyword.arg for keyword in node.keywords)
        if node.func.attr == "rename":
            renamed = [keyword.value for keyword in node.keywords if keyword.arg == "columns"]
            for mapping in (value for value in renamed if isinstance(value, ast.Dict)):
                fields.update(_text_of(value) for value in mapping.values)
    return {field for field in fields if field is not None}
