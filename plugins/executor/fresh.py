"""Each run starts from clean data: a fresh view of the namespace in which
whatever a program mutates is its own.

DataFrames and Series are shallow copies; pandas copy-on-write (always on in
pandas 3) makes a write to one copy its own, so a copy costs O(columns), not
O(rows). Other mutable containers (graphs, lists, dicts, sets) are copied with
their own `copy()`; immutable values and modules are shared.
"""

from __future__ import annotations

import copy
import types
from typing import Any

import pandas as pd

from plugins.executor.module_guard import GuardedModule

_SHARED_TYPES = (
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    type(None),
    tuple,
    frozenset,
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    GuardedModule,
    pd.Index,
)


def fresh_copy(value: Any) -> Any:
    """A copy of `value` that a program may mutate without touching `value`."""
    if isinstance(value, _SHARED_TYPES):
        return value
    if isinstance(value, pd.DataFrame | pd.Series):
        return value.copy(deep=False)
    copier = getattr(value, "copy", None)
    if callable(copier):
        return copier()
    return copy.deepcopy(value)


def fresh_namespace(namespace: dict[str, Any]) -> dict[str, Any]:
    """Fresh copies of every value of `namespace`, for one run."""
    return {name: fresh_copy(value) for name, value in namespace.items()}
