"""The builtins programs run with: the harmless ones, plus an `__import__`
that honours the allowlist and hands out guarded modules, and `getattr` /
`hasattr` that refuse closed attribute names."""

from __future__ import annotations

import builtins
import importlib
from typing import Any

from plugins.executor.errors import SandboxViolation
from plugins.executor.module_guard import GuardedModule, guard_value
from plugins.executor.policy import attribute_is_closed, module_is_allowed

_SAFE_NAMES = [
    *("abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr"),
    *("classmethod", "complex", "dict", "divmod", "enumerate", "filter", "float", "format"),
    *("frozenset", "hash", "hex", "id", "int", "isinstance", "issubclass", "iter", "len"),
    *("list", "map", "max", "min", "next", "object", "oct", "ord", "pow", "print", "property"),
    *("range", "repr", "reversed", "round", "set", "slice", "sorted", "staticmethod", "str"),
    *("sum", "super", "tuple", "type", "zip", "True", "False", "None", "NotImplemented"),
    *("Ellipsis", "__build_class__"),
]


def _guarded_import(
    name: str,
    globals_: dict[str, Any] | None = None,
    locals_: dict[str, Any] | None = None,
    fromlist: tuple[str, ...] | None = (),
    level: int = 0,
) -> Any:
    """`import x.y` / `from x import y` for allowlisted modules only.

    C code that imports a helper while a program runs (numpy's
    `numpy._core._dtype` inside `str(dtype)`, `_strptime` inside `strptime`)
    goes through this function too, as `PyImport_Import` does: with a list
    as `fromlist`, which an import statement never passes. It gets the real
    module when the helper belongs to an allowed package or is a private
    standard-library helper; the program never sees it.
    """
    if isinstance(fromlist, list) and not level and _library_helper(name):
        return importlib.import_module(name)
    if level or not module_is_allowed(name) or any(attribute_is_closed(p) for p in name.split(".")):
        raise SandboxViolation(f"import of {name!r} is not allowed in the executor")
    module = importlib.import_module(name)
    if fromlist:
        return GuardedModule(module)
    top = name.split(".", 1)[0]
    return GuardedModule(importlib.import_module(top))


def _library_helper(name: str) -> bool:
    """A module C code may import for itself: part of an allowed package, or
    a private standard-library helper such as `_strptime`."""
    return module_is_allowed(name) or (name.startswith("_") and name.isidentifier())


def _safe_getattr(obj: Any, name: str, *default: Any) -> Any:
    """getattr that refuses closed names (the AST check already wants literals)."""
    if not isinstance(name, str) or attribute_is_closed(name):
        raise SandboxViolation(f"the attribute {name!r} is not allowed")
    return guard_value(getattr(obj, name, *default), name)


def _safe_hasattr(obj: Any, name: str) -> bool:
    """hasattr that refuses closed names."""
    if not isinstance(name, str) or attribute_is_closed(name):
        raise SandboxViolation(f"the attribute {name!r} is not allowed")
    return hasattr(obj, name)


def _exception_names() -> list[str]:
    return [
        name
        for name, value in vars(builtins).items()
        if isinstance(value, type) and issubclass(value, BaseException)
    ]


def _build_table() -> dict[str, Any]:
    table = {name: getattr(builtins, name) for name in _SAFE_NAMES + _exception_names()}
    table.update(__import__=_guarded_import, getattr=_safe_getattr, hasattr=_safe_hasattr)
    return table


_TABLE = _build_table()


def make_builtins() -> dict[str, Any]:
    """A fresh copy of the restricted builtins for one run (a program cannot
    reach it, and a copy keeps one run's changes from the next anyway)."""
    return dict(_TABLE)
