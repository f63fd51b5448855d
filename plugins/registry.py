"""Finds plugins through the `pandora.plugins` entry point group.

A plugin that fails to import or register is reported (a warning on stderr and
an entry in `broken_plugins()`) and skipped: one bad third-party package must
never stop the CLI or the server.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib.metadata import entry_points

import pluggy

from plugins import hookspecs
from plugins.errors import BadInputError
from plugins.protocols import Loader, Representation
from plugins.representation_defaults import with_defaults

ENTRY_POINT_GROUP = "pandora.plugins"


@dataclass(frozen=True)
class BrokenPlugin:
    """A plugin that could not be loaded, and why."""

    name: str
    target: str
    error: str


class PluginRegistry:
    """The loaders and representations every registered plugin contributed."""

    def __init__(self, manager: pluggy.PluginManager, broken: list[BrokenPlugin]):
        self.manager = manager
        self.broken = broken
        self.loaders: list[Loader] = []
        self.representations: dict[str, Representation] = {}
        self.contributions: dict[str, list[str]] = {}
        for plugin_name, plugin in manager.list_name_plugin():
            self._collect(plugin_name, plugin)

    def _collect(self, plugin_name: str, plugin: object) -> None:
        contributed: list[str] = []

        def add_loader(loader: Loader) -> None:
            self.loaders.append(loader)
            contributed.append(f"loader:{loader.name}")

        def add_representation(representation: Representation) -> None:
            self.representations[representation.name] = with_defaults(representation)
            contributed.append(f"representation:{representation.name}")

        hooks = {"register_loaders": add_loader, "register_representations": add_representation}
        for hook_name, register in hooks.items():
            implementation = getattr(plugin, hook_name, None)
            if implementation is None:
                continue
            try:
                implementation(register=register)
            except Exception as error:  # a third-party bug must not stop Pandora
                self.broken.append(BrokenPlugin(plugin_name, hook_name, _one_line(error)))
                _warn(f"plugin {plugin_name!r} failed in {hook_name}: {_one_line(error)}")
        self.contributions[plugin_name] = contributed

    def register_plugin(self, plugin: object, name: str) -> None:
        """Add `plugin` (a module or object with `@hookimpl` functions) now, as
        if it had been found in the entry point group: for programs that embed
        Pandora and for tests, which have no package to install."""
        self.manager.register(plugin, name=name)
        self._collect(name, plugin)

    def loader(self, name: str) -> Loader:
        """The loader called `name`, or a BadInputError listing the known ones."""
        for loader in self.loaders:
            if loader.name == name:
                return loader
        known = ", ".join(sorted(loader.name for loader in self.loaders))
        raise BadInputError(f"unknown plugin {name!r}; known loaders: {known}")

    def representation(self, name: str) -> Representation:
        """The representation called `name`, or a BadInputError listing the known ones."""
        if name not in self.representations:
            known = ", ".join(sorted(self.representations))
            raise BadInputError(f"unknown representation {name!r}; known: {known}")
        return self.representations[name]


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _warn(message: str) -> None:
    print(f"pandora: warning: {message}", file=sys.stderr)


@cache
def get_registry() -> PluginRegistry:
    """Load every plugin of the entry point group once per process."""
    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    broken: list[BrokenPlugin] = []
    for entry_point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if manager.has_plugin(entry_point.name):
            continue
        try:
            manager.register(entry_point.load(), name=entry_point.name)
        except Exception as error:  # a third-party bug must not stop Pandora
            broken.append(BrokenPlugin(entry_point.name, entry_point.value, _one_line(error)))
            _warn(f"plugin {entry_point.name!r} ({entry_point.value}) skipped: {_one_line(error)}")
    return PluginRegistry(manager, broken)
