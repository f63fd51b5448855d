"""Modules as programs see them: a read-only view that hands out only allowed
attributes, and wraps submodules in the same view.

`pd.io.common.os.system` goes through three guards here: `io` and `os` are
closed names, and any attribute whose value is a module outside the import
allowlist is refused even under a harmless name.
"""

from __future__ import annotations

import types
from typing import Any

from plugins.executor.errors import SandboxViolation
from plugins.executor.policy import attribute_is_closed, module_is_allowed


class GuardedModule:
    """A read-only stand-in for an allowed module."""

    __slots__ = ("_pandora_cache", "_pandora_module")

    def __init__(self, module: types.ModuleType):
        object.__setattr__(self, "_pandora_module", module)
        object.__setattr__(self, "_pandora_cache", {})

    def __getattr__(self, name: str) -> Any:
        cache = object.__getattribute__(self, "_pandora_cache")
        if name in cache:
            return cache[name]
        module = object.__getattribute__(self, "_pandora_module")
        if attribute_is_closed(name):
            raise SandboxViolation(f"{module.__name__}.{name} is closed in the executor")
        value = guard_value(getattr(module, name), f"{module.__name__}.{name}")
        cache[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        module = object.__getattribute__(self, "_pandora_module")
        raise SandboxViolation(f"modules are read-only in the executor ({module.__name__})")

    __delattr__ = __setattr__

    def __dir__(self) -> list[str]:
        module = object.__getattribute__(self, "_pandora_module")
        return [name for name in dir(module) if not attribute_is_closed(name)]

    def __repr__(self) -> str:
        module = object.__getattribute__(self, "_pandora_module")
        return f"<module {module.__name__!r} (guarded)>"


def guard_value(value: Any, where: str) -> Any:
    """`value` as a program may see it: allowed modules guarded, others refused."""
    if not isinstance(value, types.ModuleType):
        return value
    if not module_is_allowed(value.__name__):
        raise SandboxViolation(f"{where} is the module {value.__name__}, closed in the executor")
    return GuardedModule(value)
