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
        "matplotlib",
    }
)
"""Top-level modules a program may import (their submodules too)."""

CLOSED_MODULES = (
    "pandas.core.computation",
    "pandas.plotting",
    "pandas.io",
    "pandas.compat",
    "numpy.lib.stride_tricks",
    "numpy.lib._stride_tricks_impl",
    *(
        f"matplotlib.{name}"
        for name in (
            "backends",
            "backend_bases",
            "backend_managers",
            "backend_tools",
            "font_manager",
            "ft2font",
            "textpath",
            "style",
            "image",
            "animation",
            "testing",
            "sphinxext",
            "texmanager",
            "dviread",
            "cbook",
            "pylab",
        )
    ),
)
"""Submodules of allowed packages that stay closed: pandas' expression engine
(it resolves names on its own), its plotting backends (an option names a
module to import), its readers and writers, its compatibility helpers (an
unpickler of bytes), numpy's stride tricks (views that reach memory
outside an array), and matplotlib's backends, fonts, styles, images,
animations (they import modules by name, read files or start programs)."""

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
        "vformat",
        "Formatter",
        "as_strided",
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

DUNDER_BYTES = re.compile(rb"__\w+__")
"""The same in a bytes constant (a pickle names `__builtin__`, `bytes.decode` makes a name)."""


def attribute_is_closed(name: str) -> bool:
    """True when generated code may not read or write attribute `name`."""
    return (
        name.startswith(DOOR_PREFIXES)
        or name in DOOR_ATTRIBUTES
        or name in INTROSPECTION_ATTRIBUTES
    )


FORMAT_METHODS = frozenset({"format", "format_map", "vformat"})
"""Methods that expand a format template: with a template built at run time,
`{0.attr}` and `{0[key]}` fields walk attributes and items."""


def module_is_allowed(qualified_name: str) -> bool:
    """True when module `qualified_name` (or the package it is part of) may be
    imported, and it is not one of the closed submodules."""
    if qualified_name.split(".", 1)[0] not in ALLOWED_MODULES:
        return False
    return not any(
        qualified_name == closed or qualified_name.startswith(closed + ".")
        for closed in CLOSED_MODULES
    )


def name_is_private(name: str) -> bool:
    """True for private and dunder names (`_mgr`, `__class__`), which programs
    may not pass as strings to methods that look them up (`agg`, `apply`)."""
    return name.startswith("_")
