"""What generated code may use: the import allowlist and the closed names.

One place for the policy, read by the AST check, the restricted builtins, the
module guard and the library doors, so that the layers agree.
"""

from __future__ import annotations

import re

ALLOWED_MODULES = frozenset(
    {
        "pandas",
        "numpy",
        "networkx",
        "math",
        "cmath",
        "re",
        "datetime",
        "calendar",
        "time",
        "collections",
        "itertools",
        "functools",
        "statistics",
        "json",
        "decimal",
        "fractions",
        "heapq",
        "bisect",
        "random",
        "difflib",
        "unicodedata",
        "textwrap",
        "typing",
        "copy",
        "dateutil",
        "zoneinfo",
    }
)
"""Top-level modules a program may import (their submodules too)."""

FORBIDDEN_NAMES = frozenset(
    {
        "eval",
        "exec",
        "compile",
        "open",
        "globals",
        "locals",
        "vars",
        "setattr",
        "delattr",
        "breakpoint",
        "input",
        "help",
        "memoryview",
        "exit",
        "quit",
    }
)
"""Builtins that run code, reach namespaces or the outside world."""

INTROSPECTION_ATTRIBUTES = frozenset(
    {
        "gi_frame",
        "gi_code",
        "gi_yieldfrom",
        "cr_frame",
        "cr_code",
        "cr_await",
        "ag_frame",
        "ag_code",
        "ag_await",
        "f_back",
        "f_globals",
        "f_locals",
        "f_builtins",
        "f_code",
        "tb_frame",
        "tb_next",
        "co_code",
        "co_consts",
        "func_globals",
        "mro",
        "format_map",
        "setflags",
        "writeable",
    }
)
"""Attributes that lead to frames, code objects, class internals or that make
shared arrays writable."""

PANDAS_WRITERS_ALWAYS_CLOSED = (
    "to_excel",
    "to_parquet",
    "to_pickle",
    "to_sql",
    "to_hdf",
    "to_feather",
    "to_stata",
    "to_clipboard",
    "to_orc",
)
"""pandas writers that touch files or databases whatever their arguments."""

DOOR_ATTRIBUTES = frozenset(
    {
        # writers of pandas objects (to_csv() and friends without a path are
        # allowed at run time by the library doors; with a path they are not)
        *PANDAS_WRITERS_ALWAYS_CLOSED,
        # numpy file and native-code doors
        "tofile",
        "fromfile",
        "dump",
        "load",
        "loadtxt",
        "save",
        "savez",
        "savez_compressed",
        "savetxt",
        "genfromtxt",
        "memmap",
        "ctypeslib",
        "f2py",
        "DataSource",
        # expression engines that resolve names on their own
        "eval",
        # modules reachable as attributes of allowed modules
        "os",
        "sys",
        "subprocess",
        "socket",
        "ctypes",
        "importlib",
        "builtins",
        "shutil",
        "pickle",
        "io",
        "pathlib",
        "threading",
        "multiprocessing",
        "signal",
        "inspect",
        "gc",
        "weakref",
        "marshal",
        "posix",
        "resource",
    }
)
"""Attribute names that open files, load native code or reach other modules."""

DOOR_PREFIXES = ("read_", "write_", "_")
"""Attribute name prefixes that are closed: readers of paths or URLs, writers,
and every private or dunder attribute."""

DUNDER_STRING = re.compile(r"__\w+__")
"""A string constant naming a dunder (`df.agg("__class__")` looks it up)."""

QUERY_ESCAPE = re.compile(r"@\s*\w+\s*[.\[(]|__")
"""In a `DataFrame.query` expression: `@name` followed by attribute access,
indexing or a call (`@pd.io.common.os`), and dunders."""


def attribute_is_closed(name: str) -> bool:
    """True when generated code may not read or write attribute `name`."""
    return (
        name.startswith(DOOR_PREFIXES)
        or name in DOOR_ATTRIBUTES
        or name in INTROSPECTION_ATTRIBUTES
    )


def module_is_allowed(qualified_name: str) -> bool:
    """True when module `qualified_name` (or the package it is part of) may be imported."""
    return qualified_name.split(".", 1)[0] in ALLOWED_MODULES
