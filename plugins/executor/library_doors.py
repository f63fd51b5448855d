"""Close the doors that pandas, numpy and networkx open onto files, the
network and native code, inside a worker process (never in the caller's).

Readers of paths or URLs (`pd.read_csv("http://...")`, `nx.read_edgelist`),
writers (`df.to_csv("out.csv")`, `np.save`), pickle loaders, `np.ctypeslib`,
`np.f2py`, and expression engines whose `@name` lookups reach modules
(`df.query("@pd.io.common.os...")`) are replaced by functions that raise
SandboxViolation, or wrapped so that only harmless uses pass.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

from plugins.executor.errors import SandboxViolation
from plugins.executor.policy import PANDAS_WRITERS_ALWAYS_CLOSED, QUERY_ESCAPE

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
}
"""Module attributes closed outright."""

CLOSED_PREFIXES = {"pandas": ("read_",), "networkx": ("read_", "write_", "generate_")}
"""Module attributes closed by name prefix (readers and writers)."""


WRITERS_WITHOUT_PATH = ("to_csv", "to_json", "to_html", "to_latex", "to_markdown", "to_xml")
"""pandas writers that return text when given no path or buffer: allowed then."""


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
    pandas = sys.modules.get("pandas")
    if pandas is not None:
        closed += _close_pandas_methods(pandas)
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
    for name in ("query", "eval"):
        method = getattr(pandas.DataFrame, name)
        setattr(pandas.DataFrame, name, _checked_expression(method, f"pandas.DataFrame.{name}"))
        closed.append(f"pandas.DataFrame.{name}(@module...)")
    return closed


def _text_only(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        target = args[0] if args else kwargs.get("path_or_buf", kwargs.get("buf"))
        if target is not None:
            raise SandboxViolation(f"{label} may not write to a file: call it without a path")
        return method(self, *args, **kwargs)

    return wrapper


def _checked_expression(method: Callable[..., Any], label: str) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: Any, expr: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(expr, str) or QUERY_ESCAPE.search(expr):
            raise SandboxViolation(
                f"{label}: expressions may not reach attributes of @variables or dunders"
            )
        if kwargs.get("local_dict") is not None or kwargs.get("global_dict") is not None:
            raise SandboxViolation(f"{label}: local_dict and global_dict are not allowed")
        # one frame more between the caller and pandas: `@name` must still
        # resolve in the program's frame
        kwargs["level"] = kwargs.get("level", 0) + 1
        return method(self, expr, *args, **kwargs)

    return wrapper
