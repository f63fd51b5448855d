"""Close the doors that pandas, numpy and networkx open onto files, the
network and native code, inside a worker process (never in the caller's).

Readers of paths or URLs (`pd.read_csv("http://...")`, `nx.read_edgelist`),
writers (`df.to_csv("out.csv")`, `np.save`), pickle loaders, `np.ctypeslib`,
`np.f2py`, expression engines whose `@name` lookups reach modules
(`df.query("@pd.io.common.os...")`), `typing`'s evaluators of annotations
(they evaluate a string with the real builtins, in any module's globals) and
pandas' plotting-backend lookup (it imports the module an option names) are
replaced by functions that raise SandboxViolation, or wrapped so that only
harmless uses pass.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from plugins.executor.errors import SandboxViolation
from plugins.executor.expression_check import ExpressionRefused, check_expression
from plugins.executor.policy import PANDAS_WRITERS_ALWAYS_CLOSED, name_is_private

CLOSED_FUNCTIONS = {
    "numpy": (
        "load",
        "save",
        "savez",
        "savez_compressed",
        "savetxt",
        "loadtxt",
        "genfromtxt",
        "fromfile",
        "memmap",
        "ctypeslib",
        "f2py",
        "DataSource",
    ),
    "pandas": ("eval",),
    "typing": ("get_type_hints", "get_overloads", "_eval_type"),
}
"""Module attributes closed outright. `typing`'s are closed in the module
itself, so that library code calling them for a program (functools'
`singledispatch.register`) is refused too."""

CLOSED_PREFIXES = {"pandas": ("read_",), "networkx": ("read_", "write_", "generate_")}
"""Module attributes closed by name prefix (readers and writers)."""


WRITERS_WITHOUT_PATH = ("to_csv", "to_json", "to_html", "to_latex", "to_markdown", "to_xml")
"""pandas writers that return text when given no path or buffer: allowed then."""

PLOTTING_BACKEND = "matplotlib"
"""The only plotting backend pandas may use (`plotting.backend`, `backend=`)."""

NAME_LOOKUP_METHODS = ("agg", "aggregate", "apply", "transform", "pipe")
"""Methods that look a function up by name when given a string."""

EXPRESSION_KEYWORDS_REFUSED = ("local_dict", "global_dict", "resolvers", "level")
"""`query` / `eval` arguments that change where `@names` resolve."""


def close_library_doors() -> list[str]:
    """Close every door of the libraries loaded in this process; return their names."""
    closed: list[str] = []
    for module_name, names in CLOSED_FUNCTIONS.items():
        module = sys.modules.get(module_name)
        if module is not None:
            for name in names:
                closed.append(_close(module, name, f"{module_name}.{name}"))
    for module_name, prefixes in CLOSED_PREFIXES.items():
        module = sys.modules.get(module_name)
        if module is not None:
            for name in [n for n in dir(module) if n.startswith(prefixes)]:
                closed.append(_close(module, name, f"{module_name}.{name}"))
    typing_module = sys.modules.get("typing")
    if typing_module is not None:
        closed.append(_close_forward_reference_evaluation(typing_module))
    pandas = sys.modules.get("pandas")
    if pandas is not None:
        closed += _close_pandas_methods(pandas)
        closed.append(_lock_plotting_backend())
    return closed


def _close(owner: Any, name: str, label: str) -> str:
    setattr(owner, name, _refuser(label))
    return label


def _refuser(label: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise SandboxViolation(
            f"{label} is closed in the executor: programs work on the loaded data, "
            "not on files, the network or native code"
        )

    return refuse


def _close_forward_reference_evaluation(typing_module: Any) -> str:
    """`ForwardRef._evaluate` runs its string in the module it names (`module="os"`)."""
    refuse = _refuser("typing.ForwardRef evaluation")
    typing_module.ForwardRef._evaluate = lambda self, *args, **kwargs: refuse()
    return "typing.ForwardRef._evaluate"


def _lock_plotting_backend() -> str:
    """pandas imports the module `plotting.backend` (or `backend=`) names, at
    `set_option` and at each plot: only matplotlib passes, whatever is asked."""
    from pandas.plotting import _core

    find_backend = _core._get_plot_backend

    @functools.wraps(find_backend)
    def matplotlib_only(backend: str | None = None) -> Any:
        if backend not in (None, PLOTTING_BACKEND):
            raise SandboxViolation(
                f"the plotting backend {backend!r} is closed: only {PLOTTING_BACKEND} draws"
            )
        return find_backend(PLOTTING_BACKEND)

    _core._get_plot_backend = matplotlib_only
    return "pandas.plotting._core._get_plot_backend(matplotlib only)"


def _close_pandas_methods(pandas: Any) -> list[str]:
    closed: list[str] = []
    for cls in (pandas.DataFrame, pandas.Series):
        label = f"pandas.{cls.__name__}"
        for name in PANDAS_WRITERS_ALWAYS_CLOSED:
            if hasattr(cls, name):
                closed.append(_close(cls, name, f"{label}.{name}"))
        for name in WRITERS_WITHOUT_PATH:
            if hasattr(cls, name):
                setattr(cls, name, _text_only(getattr(cls, name), f"{label}.{name}"))
                closed.append(f"{label}.{name}(path)")
    # a Styler takes templates and format strings that walk attributes of cells
    pandas.DataFrame.style = property(_refuser("pandas.DataFrame.style"))
    closed.append("pandas.DataFrame.style")
    for name in ("query", "eval"):
        method = getattr(pandas.DataFrame, name)
        checked = _checked_expression(method, f"pandas.DataFrame.{name}", name == "query")
        setattr(pandas.DataFrame, name, checked)
        closed.append(f"pandas.DataFrame.{name}(checked expression)")
    for cls in _name_lookup_classes(pandas):
        for name in NAME_LOOKUP_METHODS:
            if name in vars(cls):
                setattr(cls, name, _public_names_only(getattr(cls, name), f"{cls.__name__}.{name}"))
                closed.append(f"{cls.__name__}.{name}(private name)")
    return closed


def _name_lookup_classes(pandas: Any) -> list[type]:
    """Classes whose `agg` / `apply` / ... accept a function's name as a string."""
    from pandas.core import groupby, resample, window

    candidates = [pandas.DataFrame, pandas.Series]
    for module in (groupby, window, resample):
        candidates += [value for value in vars(module).values() if isinstance(value, type)]
    classes = set()
    for candidate in candidates:
        classes.update(c for c in candidate.__mro__ if c.__module__.startswith("pandas"))
    return sorted(classes, key=lambda c: (c.__module__, c.__qualname__))


def _text_only(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        target = args[0] if args else kwargs.get("path_or_buf", kwargs.get("buf"))
        if target is not None:
            raise SandboxViolation(f"{label} may not write to a file: call it without a path")
        return method(self, *args, **kwargs)

    return wrapper


def _checked_expression(
    method: Callable[..., Any], label: str, called_by_programs: bool
) -> Callable[..., Any]:
    """`method` that checks its expression first. Programs reach `eval` only
    through `query` (the name `eval` is closed), which passes its own scope
    arguments; the arguments of a program's `query` call are checked too."""

    @functools.wraps(method)
    def wrapper(self: Any, expr: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(expr, str):
            raise SandboxViolation(f"{label}: the expression must be a string")
        try:
            check_expression(expr)
        except ExpressionRefused as refused:
            raise SandboxViolation(f"{label}: {refused}") from None
        scoped = [name for name in EXPRESSION_KEYWORDS_REFUSED if kwargs.get(name) is not None]
        if called_by_programs and scoped:
            raise SandboxViolation(f"{label}: the arguments {', '.join(scoped)} are closed")
        # this wrapper is one frame more between the program and pandas:
        # `@name` must still resolve in the program's frame
        kwargs["level"] = kwargs.get("level", 0) + 1
        return method(self, expr, *args, **kwargs)

    return wrapper


def _public_names_only(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for value in (*args[1:], *kwargs.values()):
            name = _private_name_in(value)
            if name is not None:
                raise SandboxViolation(f"{label}: the private name {name!r} is not allowed")
        return method(*args, **kwargs)

    return wrapper


def _private_name_in(value: Any, depth: int = 3) -> str | None:
    """A private or dunder name among the strings of `value` (a name, or a
    list, tuple or dict of names, as `agg` takes them)."""
    if isinstance(value, str):
        return value if name_is_private(value) else None
    if depth == 0:
        return None
    if isinstance(value, dict):
        value = [*value.keys(), *value.values()]
    if isinstance(value, list | tuple):
        for item in value:
            found = _private_name_in(item, depth - 1)
            if found is not None:
                return found
    return None
