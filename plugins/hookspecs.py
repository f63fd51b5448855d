"""Every extension point of Pandora, in one place.

A plugin is a module (or object) registered under the `pandora.plugins` entry
point group whose functions are decorated with `@hookimpl` and named after the
specs below. The built-in loaders and representations are registered through
that same group, so they are written exactly like a third-party plugin.
See docs/plugins.md for a worked example of each hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from plugins.protocols import Loader, Representation

PROJECT_NAME = "pandora"

hookspec = pluggy.HookspecMarker(PROJECT_NAME)
hookimpl = pluggy.HookimplMarker(PROJECT_NAME)


@hookspec
def register_loaders(register: Callable[[Loader], None]) -> None:
    """Register loaders of raw sources: each opens files of some extensions or
    URLs of some schemes and returns a `Source` (a table, a database or a KG)."""


@hookspec
def register_representations(register: Callable[[Representation], None]) -> None:
    """Register representations: a way of showing sources to the LLM (BOXes,
    NetworkX code, a SQL schema) together with the kind of code it writes."""
