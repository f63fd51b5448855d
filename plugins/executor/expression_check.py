"""The policy for pandas `query` / `eval` expressions, checked on their syntax
tree both before a program runs (literal expressions) and when the method is
called (expressions built at run time).

An expression may compare and combine columns and `@variables`, call methods
on columns and index `@variables`; it may not reach an attribute of an
`@variable` (`(@x).gi_frame`: the frame chain leads to real builtins), name
anything private or dunder, or use an attribute the program itself could not.
"""

from __future__ import annotations

import ast
import re

from plugins.executor.policy import DUNDER_STRING, attribute_is_closed, name_is_private

LOCAL_PREFIX = "pandora_local_"
BACKTICKED = re.compile(r"`[^`]*`")
LOCAL_REFERENCE = re.compile(r"@\s*([A-Za-z_]\w*)")


class ExpressionRefused(Exception):
    """The expression reaches for something closed."""


def check_expression(expression: str) -> None:
    """Raise ExpressionRefused unless `expression` keeps to the policy."""
    if DUNDER_STRING.search(expression):
        raise ExpressionRefused("query expressions may not name dunders")
    text = BACKTICKED.sub("backticked_column", expression)
    text = LOCAL_REFERENCE.sub(lambda match: LOCAL_PREFIX + match.group(1), text)
    if "@" in text:
        raise ExpressionRefused("`@` may only prefix a variable name in a query expression")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ExpressionRefused("the query expression is not a valid expression") from None
    for node in ast.walk(tree):
        _check_node(node)


def _check_node(node: ast.AST) -> None:
    if isinstance(node, ast.Name):
        name = node.id.removeprefix(LOCAL_PREFIX)
        if name_is_private(name):
            raise ExpressionRefused(f"the name {name!r} is not allowed in a query expression")
    elif isinstance(node, ast.Attribute):
        if name_is_private(node.attr) or attribute_is_closed(node.attr):
            raise ExpressionRefused(f"the attribute {node.attr!r} is not allowed in a query")
        if _mentions_local(node.value):
            raise ExpressionRefused("query expressions may not reach attributes of @variables")
    elif isinstance(node, ast.Lambda | ast.NamedExpr | ast.comprehension):
        raise ExpressionRefused("query expressions may not define functions or assign")


def _mentions_local(node: ast.AST) -> bool:
    return any(
        isinstance(child, ast.Name) and child.id.startswith(LOCAL_PREFIX)
        for child in ast.walk(node)
    )
