"""SQL expressions as pandas expressions, with SQLite's semantics where pandas differs.

An expression becomes Python text over the current frame (`frame['age'] > 20`)
or, after aggregation, over scalars (`frame['age'].max()`). Where the two
engines disagree the code follows SQLite: LIKE ignores case, integer division
truncates, a text literal compared with a number column is read as a number
(type affinity), `x IN (subquery)` ignores the subquery's NULLs.

How columns and aggregates are written depends on where the expression is
(a row filter, an aggregate, a HAVING clause); a `Context` decides that.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.scope import ValueKind

NUMBER_KINDS = ("integer", "float")
OPPOSITES = {"==": "!=", "!=": "==", ">": "<=", "<=": ">", "<": ">=", ">=": "<"}
COMPARISONS: dict[type[exp.Expression], str] = {
    exp.EQ: "==",
    exp.NEQ: "!=",
    exp.GT: ">",
    exp.GTE: ">=",
    exp.LT: "<",
    exp.LTE: "<=",
}
ARITHMETIC: dict[type[exp.Expression], str] = {
    exp.Add: "+",
    exp.Sub: "-",
    exp.Mul: "*",
}


@dataclass(frozen=True)
class Expr:
    """A translated expression: its code, the kind of its values, and whether it is
    one value (`scalar`) rather than a column of the frame."""

    code: str
    kind: ValueKind
    scalar: bool
    negation: str | None = None
    """For a condition: the code that is true where it is known to be false. SQL's NOT
    of an unknown (NULL) comparison is unknown, where pandas' `~` would make it true."""

    def negated(self) -> Expr:
        """NOT this condition, with SQL's three-valued logic."""
        if self.negation is not None:
            return Expr(self.negation, "bool", self.scalar, self.code)
        code = f"(not {self.code})" if self.scalar else f"~({self.code})"
        return Expr(code, "bool", self.scalar, self.code)


class Context(Protocol):
    """Where an expression is evaluated: how its columns and aggregates are written."""

    def lookup(self, node: exp.Expression) -> Expr | None:
        """A ready-made translation of `node` (a group key, a computed aggregate), or None."""

    def column(self, node: exp.Column) -> Expr | None:
        """The column `node` in this context, None when no relation has it."""

    def aggregate(self, node: exp.AggFunc) -> Expr:
        """The aggregate `node` in this context."""

    def is_correlated(self, node: exp.Column) -> bool:
        """Whether `node` names a column of an enclosing query."""


SubqueryTranslator = Callable[[exp.Expression], tuple[str, bool]]
"""Writes a subquery's program; returns its result variable and whether it is one row."""


class ExpressionTranslator:
    """Translates SQL expressions in one context, writing subqueries through `subquery`."""

    def __init__(self, context: Context, subquery: SubqueryTranslator) -> None:
        self.context = context
        self.subquery = subquery

    def translate(self, node: exp.Expression) -> Expr:
        """The pandas expression of `node`."""
        ready = self.context.lookup(node)
        if ready is not None:
            return ready
        if isinstance(node, exp.Paren):
            inner = self.translate(node.this)
            return Expr(f"({inner.code})", inner.kind, inner.scalar)
        if isinstance(node, exp.Column):
            return self._column(node)
        if isinstance(node, exp.Literal | exp.Null | exp.Boolean):
            return literal(node)
        if isinstance(node, exp.Neg):
            inner = self.translate(node.this)
            return Expr(f"-{inner.code}", inner.kind, inner.scalar)
        if isinstance(node, exp.AggFunc):
            return self.context.aggregate(node)
        if type(node) in COMPARISONS:
            return self._comparison(node)
        if isinstance(node, exp.And | exp.Or):
            return self._logical(node)
        if isinstance(node, exp.Not):
            return self._not(node)
        if type(node) in ARITHMETIC:
            return self._arithmetic(node, ARITHMETIC[type(node)])
        if isinstance(node, exp.Div):
            return self._division(node)
        if isinstance(node, exp.Mod):
            return self._binary_call("np.fmod", node)
        if isinstance(node, exp.DPipe):
            return self._concatenation(node)
        if isinstance(node, exp.Is):
            return self._is_null(node)
        if isinstance(node, exp.Like | exp.ILike):
            return self._like(node)
        if isinstance(node, exp.Between):
            return self._between(node)
        if isinstance(node, exp.In):
            return self._in(node)
        if isinstance(node, exp.Exists):
            variable, _ = self.subquery(node.this)
            return Expr(f"(not {variable}.empty)", "bool", True)
        if isinstance(node, exp.Subquery | exp.Select):
            return self._scalar_subquery(node)
        if isinstance(node, exp.Case):
            return self._case(node)
        if isinstance(node, exp.Func):
            return self._function(node)
        raise UntranslatableSql(construct_name(node), node.sql(dialect="sqlite"))

    def condition(self, node: exp.Expression) -> Expr:
        """A boolean expression; a bare value is true when it is non-zero."""
        translated = self.translate(node)
        if translated.kind in ("bool", "unknown"):
            return translated
        if translated.scalar:
            return Expr(f"bool({translated.code})", "bool", True)
        return Expr(f"({translated.code}.fillna(0) != 0)", "bool", False)

    def _column(self, node: exp.Column) -> Expr:
        if isinstance(node.this, exp.Star):
            raise UntranslatableSql("`*` inside an expression")
        resolved = self.context.column(node)
        if resolved is not None:
            return resolved
        if node.this.quoted and not node.table:
            # SQLite reads a double-quoted name that is no column as a string literal
            return Expr(repr(node.name), "text", True)
        if self.context.is_correlated(node):
            raise UntranslatableSql("a correlated subquery", node.sql(dialect="sqlite"))
        raise UntranslatableSql("an unknown column", node.sql(dialect="sqlite"))

    def _comparison(self, node: exp.Expression) -> Expr:
        left, right = self.translate(node.this), self.translate(node.expression)
        if "null" in (left.kind, right.kind):
            raise UntranslatableSql("a comparison with NULL (use IS NULL)", node.sql())
        left, right = coerce_pair(left, node.this, right, node.expression)
        operator = COMPARISONS[type(node)]
        return Expr(
            compared(left, operator, right),
            "bool",
            left.scalar and right.scalar,
            compared(left, OPPOSITES[operator], right),
        )

    def _logical(self, node: exp.Expression) -> Expr:
        left, right = self.condition(node.this), self.condition(node.expression)
        scalar = left.scalar and right.scalar
        if scalar:
            word = "and" if isinstance(node, exp.And) else "or"
            return Expr(f"({left.code} {word} {right.code})", "bool", True)
        operator, opposite = ("&", "|") if isinstance(node, exp.And) else ("|", "&")
        left_not, right_not = left.negated(), right.negated()
        return Expr(
            f"({left.code}) {operator} ({right.code})",
            "bool",
            False,
            f"({left_not.code}) {opposite} ({right_not.code})",
        )

    def _not(self, node: exp.Not) -> Expr:
        return self.condition(node.this).negated()

    def _arithmetic(self, node: exp.Expression, operator: str) -> Expr:
        left, right = self.translate(node.this), self.translate(node.expression)
        kind = "integer" if left.kind == right.kind == "integer" else "float"
        return Expr(f"({left.code} {operator} {right.code})", kind, left.scalar and right.scalar)

    def _division(self, node: exp.Div) -> Expr:
        left, right = self.translate(node.this), self.translate(node.expression)
        scalar = left.scalar and right.scalar
        if left.kind == right.kind == "integer":
            # SQLite divides integers as integers, truncating toward zero
            return Expr(f"np.trunc({left.code} / {right.code})", "integer", scalar)
        return Expr(f"({left.code} / {right.code})", "float", scalar)

    def _binary_call(self, function: str, node: exp.Expression) -> Expr:
        left, right = self.translate(node.this), self.translate(node.expression)
        return Expr(
            f"{function}({left.code}, {right.code})", left.kind, left.scalar and right.scalar
        )

    def _concatenation(self, node: exp.DPipe) -> Expr:
        parts = [self.translate(node.this), self.translate(node.expression)]
        codes = [part.code if part.kind == "text" else as_text(part) for part in parts]
        return Expr(f"({codes[0]} + {codes[1]})", "text", all(part.scalar for part in parts))

    def _is_null(self, node: exp.Is) -> Expr:
        if not isinstance(node.expression, exp.Null):
            raise UntranslatableSql("IS with a value other than NULL", node.sql())
        value = self.translate(node.this)
        if value.scalar:
            return Expr(f"pd.isna({value.code})", "bool", True, f"pd.notna({value.code})")
        return Expr(f"{value.code}.isna()", "bool", False, f"{value.code}.notna()")

    def _like(self, node: exp.Expression) -> Expr:
        value = self.translate(node.this)
        pattern_node = node.expression
        if not isinstance(pattern_node, exp.Literal | exp.Column) or (
            isinstance(pattern_node, exp.Column) and not pattern_node.this.quoted
        ):
            raise UntranslatableSql("LIKE with a pattern that is not a literal", node.sql())
        if node.args.get("escape"):
            raise UntranslatableSql("LIKE ... ESCAPE", node.sql())
        text = value.code if value.kind == "text" else as_text(value)
        if value.scalar:
            raise UntranslatableSql("LIKE on a single value", node.sql())
        matches = Expr(like_test(text, pattern_node.name), "bool", False, None)
        matches = Expr(matches.code, "bool", False, f"~{matches.code} & {value.code}.notna()")
        return matches.negated() if node.args.get("negate") else matches

    def _between(self, node: exp.Between) -> Expr:
        value = self.translate(node.this)
        low = coerce_to(self.translate(node.args["low"]), node.args["low"], value.kind)
        high = coerce_to(self.translate(node.args["high"]), node.args["high"], value.kind)
        if value.scalar:
            return Expr(f"({low.code} <= {value.code} <= {high.code})", "bool", True)
        test = f"{value.code}.between({low.code}, {high.code})"
        return Expr(test, "bool", False, f"~{test} & {value.code}.notna()")

    def _in(self, node: exp.In) -> Expr:
        value = self.translate(node.this)
        query = node.args.get("query")
        if query is not None:
            variable, _ = self.subquery(query.this if isinstance(query, exp.Subquery) else query)
            members = f"{variable}.iloc[:, 0]"
        else:
            items = [coerce_to(self.translate(item), item, value.kind) for item in node.expressions]
            if any(not item.scalar for item in items):
                raise UntranslatableSql("IN with a list of columns", node.sql())
            members = "[" + ", ".join(item.code for item in items) + "]"
        if value.scalar:
            return Expr(f"({value.code} in list({members}))", "bool", True)
        test = f"{value.code}.isin({members})"
        return Expr(test, "bool", False, f"~{test} & {value.code}.notna()")

    def _scalar_subquery(self, node: exp.Expression) -> Expr:
        query = node.this if isinstance(node, exp.Subquery) else node
        variable, one_row = self.subquery(query)
        if one_row:
            return Expr(f"{variable}.iloc[0, 0]", "unknown", True)
        return Expr(f"({variable}.iloc[0, 0] if len({variable}) else None)", "unknown", True)

    def _case(self, node: exp.Case) -> Expr:
        operand = node.this
        conditions, choices = [], []
        for branch in node.args.get("ifs") or []:
            test = branch.this if operand is None else exp.EQ(this=operand, expression=branch.this)
            conditions.append(self.condition(test))
            choices.append(self.translate(branch.args["true"]))
        default_node = node.args.get("default")
        default = self.translate(default_node) if default_node is not None else literal(exp.Null())
        kind = next((c.kind for c in choices if c.kind != "null"), default.kind)
        if all(part.scalar for part in [*conditions, *choices, default]):
            code = default.code
            for condition, choice in reversed(list(zip(conditions, choices, strict=True))):
                code = f"({choice.code} if {condition.code} else {code})"
            return Expr(code, kind, True)
        tests = ", ".join(
            condition.code if condition.scalar else f"({condition.code}).fillna(False)"
            for condition in conditions
        )
        values = ", ".join(choice.code for choice in choices)
        return Expr(f"np.select([{tests}], [{values}], default={default.code})", kind, False)

    def _function(self, node: exp.Func) -> Expr:
        arguments = [self.translate(argument) for argument in function_arguments(node)]
        if not arguments:
            raise UntranslatableSql(f"the function {construct_name(node)}", node.sql())
        first = arguments[0]
        if isinstance(node, exp.Lower | exp.Upper):
            method = "lower" if isinstance(node, exp.Lower) else "upper"
            code = f"{first.code}.{method}()" if first.scalar else f"{first.code}.str.{method}()"
            return Expr(code, "text", first.scalar)
        if isinstance(node, exp.Length):
            code = f"len({first.code})" if first.scalar else f"{first.code}.str.len()"
            return Expr(code, "integer", first.scalar)
        if isinstance(node, exp.Abs):
            return Expr(f"abs({first.code})", first.kind, first.scalar)
        if isinstance(node, exp.Round):
            # SQLite rounds halves away from zero; pandas and Python round them to even
            scale = f"10**{arguments[1].code}" if len(arguments) > 1 else "1"
            code = (
                f"(np.floor(abs({first.code}) * {scale} + 0.5) / {scale} * np.sign({first.code}))"
            )
            return Expr(code, "float", first.scalar)
        if isinstance(node, exp.Coalesce):
            if first.scalar:
                raise UntranslatableSql("COALESCE of a single value", node.sql())
            code = first.code + "".join(f".fillna({other.code})" for other in arguments[1:])
            return Expr(code, first.kind, False)
        if isinstance(node, exp.Cast):
            return cast(first, node)
        raise UntranslatableSql(f"the function {construct_name(node)}", node.sql(dialect="sqlite"))


def function_arguments(node: exp.Func) -> list[exp.Expression]:
    """The arguments of a function call, in order."""
    arguments = [node.this] if node.this is not None else []
    for key in ("expression", "decimals"):
        if isinstance(node.args.get(key), exp.Expression):
            arguments.append(node.args[key])
    arguments.extend(node.expressions)
    return arguments


def cast(value: Expr, node: exp.Cast) -> Expr:
    """CAST to an integer, a real or text."""
    target = node.to.this
    if target in exp.DataType.INTEGER_TYPES:
        code = f"int({value.code})" if value.scalar else f"{value.code}.astype('Int64')"
        return Expr(code, "integer", value.scalar)
    if target in exp.DataType.REAL_TYPES:
        code = f"float({value.code})" if value.scalar else f"{value.code}.astype(float)"
        return Expr(code, "float", value.scalar)
    if target in exp.DataType.TEXT_TYPES:
        return Expr(as_text(value), "text", value.scalar)
    raise UntranslatableSql(f"CAST to {node.to.sql()}", node.sql())


def literal(node: exp.Expression) -> Expr:
    """A constant as Python."""
    if isinstance(node, exp.Null):
        return Expr("None", "null", True)
    if isinstance(node, exp.Boolean):
        return Expr(repr(bool(node.this)), "bool", True)
    if node.is_string:
        return Expr(repr(node.this), "text", True)
    number = number_of(node.this)
    kind = "integer" if isinstance(number, int) else "float"
    return Expr(repr(number), kind, True)


def number_of(text: str) -> int | float:
    """A SQL number literal as a Python number."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def coerce_pair(
    left: Expr, left_node: exp.Expression, right: Expr, right_node: exp.Expression
) -> tuple[Expr, Expr]:
    """Apply SQLite's type affinity to a comparison of a column with a literal."""
    return coerce_to(left, left_node, right.kind), coerce_to(right, right_node, left.kind)


def coerce_to(value: Expr, node: exp.Expression, other_kind: ValueKind) -> Expr:
    """A literal read as the kind of the column it is compared with, as SQLite does."""
    if not is_literal(node):
        return value
    text = node.name
    if other_kind in NUMBER_KINDS and value.kind == "text":
        try:
            return Expr(repr(number_of(text.strip())), other_kind, True)
        except ValueError:
            return value
    if other_kind == "text" and value.kind in NUMBER_KINDS:
        return Expr(repr(text), "text", True)
    return value


def is_literal(node: exp.Expression) -> bool:
    """A number or string constant (a double-quoted string counts, as in SQLite)."""
    if isinstance(node, exp.Neg):
        return is_literal(node.this)
    if isinstance(node, exp.Literal):
        return True
    return isinstance(node, exp.Column) and node.this.quoted and not node.table


def compared(left: Expr, operator: str, right: Expr) -> str:
    """`left operator right`, false where a column is NULL (pandas' `!=` says true)."""
    comparison = f"{left.code} {operator} {right.code}"
    if operator != "!=":
        return comparison
    guards = [f"{side.code}.notna()" for side in (left, right) if not side.scalar]
    return " & ".join([f"({comparison})", *guards]) if guards else comparison


def like_test(text_code: str, pattern: str) -> str:
    """The pandas test of SQLite's LIKE (case-insensitive for ASCII, missing is false)."""
    inner = pattern[1:-1] if len(pattern) >= 2 else ""
    if pattern.startswith("%") and pattern.endswith("%") and not re.search("[%_]", inner):
        return f"{text_code}.str.contains({inner!r}, case=False, regex=False, na=False)"
    regex = "".join(
        ".*" if char == "%" else "." if char == "_" else re.escape(char) for char in pattern
    )
    return f"{text_code}.str.fullmatch({regex!r}, case=False, na=False)"


def as_text(value: Expr) -> str:
    """Code turning `value` into text."""
    return f"str({value.code})" if value.scalar else f"{value.code}.astype(str)"


def construct_name(node: exp.Expression) -> str:
    """A short name of a SQL construct for messages (`WINDOW`, `SUBSTR`)."""
    if isinstance(node, exp.Anonymous):
        return str(node.this).upper()
    return node.key.upper()
