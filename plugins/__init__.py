"""Sources, their representations and the plugin mechanism.

`load_source` opens a path or URL, a `Workspace` groups sources, and the
registry finds loaders and representations through the `pandora.plugins`
entry point group (see `plugins.hookspecs`).
"""

from plugins.errors import BadInputError, PandoraError
from plugins.hookspecs import hookimpl
from plugins.model import Box, Field, Focus, ForeignKey, Source, SourceKind
from plugins.registry import get_registry
from plugins.sources import load_source
from plugins.workspace import Workspace

__all__ = [
    "BadInputError",
    "Box",
    "Field",
    "Focus",
    "ForeignKey",
    "PandoraError",
    "Source",
    "SourceKind",
    "Workspace",
    "get_registry",
    "hookimpl",
    "load_source",
]
