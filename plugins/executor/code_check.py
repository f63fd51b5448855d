"""The static layer: reject a program before it runs if its syntax reaches
for something closed (dunders, private attributes, imports outside the
allowlist, builtins that run code, format-string attribute access, ...).

This layer gives early, precise errors (with the line); it is not the
security boundary (the kernel lockdown is), so it errs on the side of refusing.
"""

from __future__ import annotations

import ast
import string

from plugins.executor.expression_check import ExpressionRefused, check_expression
from plugins.executor.policy import (
    DUNDER_BYTES,
    DUNDER_STRING,
    FORBIDDEN_NAMES,
    FORMAT_METHODS,
    attribute_is_closed,
    module_is_allowed,
)

FILENAME = "<pandora-code>"
"""The file name programs are compiled under; tracebacks are matched on it."""

DYNAMIC_ATTRIBUTE_BUILTINS = frozenset({"getattr", "hasattr"})
EXPRESSION_METHODS = frozenset({"query", "eval"})


class CodeRejected(Exception):
    """The program uses something closed; `line` is where."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


def check_code(code: str) -> ast.Module:
    """Parse `code` and return its tree, or raise SyntaxError / CodeRejected."""
    tree = ast.parse(code, filename=FILENAME)
    _Checker().visit(tree)
    return tree


class _Checker(ast.NodeVisitor):
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._check_module(alias.name, node)
        self.generic_visit(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module:
            _reject("relative imports are not allowed", node)
        self._check_module(node.module, node)
        for alias in node.names:
            if alias.name == "*" or attribute_is_closed(alias.name):
                _reject(f"importing {alias.name!r} from {node.module} is not allowed", node)
        self.generic_visit(node)

    @staticmethod
    def _check_module(name: str, node: ast.stmt) -> None:
        if not module_is_allowed(name) or any(attribute_is_closed(p) for p in name.split(".")):
            _reject(f"import of {name!r} is not allowed (allowed: pandas, numpy, ...)", node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id.startswith("__"):
            _reject(f"the name {node.id!r} is not allowed", node)
        if node.id in FORBIDDEN_NAMES:
            _reject(f"{node.id}() is not allowed", node)
        if node.id in DYNAMIC_ATTRIBUTE_BUILTINS:
            _reject(f"{node.id} may only be called with a literal attribute name", node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if attribute_is_closed(node.attr):
            _reject(f"the attribute {node.attr!r} is not allowed", node)
        if not isinstance(node.ctx, ast.Load) and _names_a_class(node.value):
            _reject("changing attributes of classes is not allowed (it outlives the run)", node)
        if node.attr in FORMAT_METHODS and not _is_string(node.value):
            _reject("str.format may only be called on a string literal", node)
        if node.attr in FORMAT_METHODS and _is_string(node.value):
            _check_format_string(node.value.value, node)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in DYNAMIC_ATTRIBUTE_BUILTINS:
            self._check_dynamic_attribute(node)
            for argument in node.args:
                self.visit(argument)
            return
        if isinstance(func, ast.Attribute) and func.attr in EXPRESSION_METHODS and node.args:
            expression = node.args[0]
            if _is_string(expression):
                try:
                    check_expression(expression.value)
                except ExpressionRefused as refused:
                    _reject(f"{func.attr}(): {refused}", node)
        self.generic_visit(node)

    @staticmethod
    def _check_dynamic_attribute(node: ast.Call) -> None:
        if len(node.args) < 2 or not _is_string(node.args[1]):
            _reject(f"{node.func.id} needs a literal attribute name", node)
        name = node.args[1].value
        if attribute_is_closed(name) or name in FORMAT_METHODS:
            _reject(f"the attribute {name!r} is not allowed with {node.func.id}", node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str) and DUNDER_STRING.search(node.value):
            _reject("strings naming dunders are not allowed", node)
        if isinstance(node.value, bytes) and DUNDER_BYTES.search(node.value):
            _reject("bytes naming dunders are not allowed", node)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:
            if attribute_is_closed(name):
                _reject(f"matching on the attribute {name!r} is not allowed", node)
        self.generic_visit(node)


def _names_a_class(node: ast.AST) -> bool:
    """`pd.DataFrame`, `Graph` or `type(x)`: by convention, a class."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "type"
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name[:1].isupper()


def _is_string(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _check_format_string(template: str, node: ast.AST) -> None:
    """Reject `"{0.attr}"` and `"{0[key]}"` fields, also nested in format specs."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as error:
        _reject(f"bad format string: {error}", node)
    for _, field_name, format_spec, _ in fields:
        if field_name and ("." in field_name or "[" in field_name):
            _reject("format fields may not access attributes or items", node)
        if format_spec:
            _check_format_string(format_spec, node)


def _reject(message: str, node: ast.AST) -> None:
    raise CodeRejected(message, getattr(node, "lineno", None))
