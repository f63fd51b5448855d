"""Sources, their representations and the plugin mechanism.

`load_source` opens a path or URL, a `Workspace` groups sources, and the
registry finds loaders and representations through the `pandora.plugins`
entry point group (see `plugins.hookspecs`).

The names below are imported on first use, so that `import plugins.errors`
(every CLI command does) does not pay for pandas or the registry.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from plugins.errors import BadInputError, PandoraError
    from plugins.hookspecs import hookimpl
    from plugins.model import (
        Box,
        Field,
        Focus,
        ForeignKey,
        SchemaItem,
        Source,
        SourceKind,
        Vocabulary,
    )
    from plugins.registry import get_registry
    from plugins.representation_defaults import RepresentationDefaults
    from plugins.sources import load_source
    from plugins.workspace import Workspace

MODULE_OF_NAME = {
    "BadInputError": "plugins.errors",
    "PandoraError": "plugins.errors",
    "hookimpl": "plugins.hookspecs",
    "Box": "plugins.model",
    "Field": "plugins.model",
    "Focus": "plugins.model",
    "ForeignKey": "plugins.model",
    "SchemaItem": "plugins.model",
    "Source": "plugins.model",
    "SourceKind": "plugins.model",
    "Vocabulary": "plugins.model",
    "get_registry": "plugins.registry",
    "RepresentationDefaults": "plugins.representation_defaults",
    "load_source": "plugins.sources",
    "Workspace": "plugins.workspace",
}

__all__ = [
    "BadInputError",
    "Box",
    "Field",
    "Focus",
    "ForeignKey",
    "PandoraError",
    "RepresentationDefaults",
    "SchemaItem",
    "Source",
    "SourceKind",
    "Vocabulary",
    "Workspace",
    "get_registry",
    "hookimpl",
    "load_source",
]


def __getattr__(name: str) -> Any:
    """Import the module defining `name` when it is first asked for."""
    if name not in MODULE_OF_NAME:
        raise AttributeError(f"module 'plugins' has no attribute {name!r}")
    value = getattr(importlib.import_module(MODULE_OF_NAME[name]), name)
    globals()[name] = value
    return value
