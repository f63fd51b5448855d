"""A `Workspace`: several sources asked about at once."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from plugins.errors import BadInputError
from plugins.model import Box, Focus, ForeignKey, Source
from plugins.names import make_identifier

Derived = TypeVar("Derived")

FOCI_KEPT = 8
"""Foci whose derived data (a KG question's BOXes, tables, subgraph code) a
workspace keeps, the most recently used: a long-lived MCP server is asked
about many, and each would otherwise stay in memory until it ends."""


@dataclass
class Workspace:
    """Sources that one question may span; BOX names are unique across them.

    When two sources yield the same BOX name, every clashing BOX is prefixed
    with its source name (`sales_orders`, `crm_orders`) and foreign keys are
    renamed to follow.
    """

    sources: list[Source] = field(default_factory=list)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """Data derived from the sources (BOXes, SQL connections), kept by the plugins
    through `derived`."""
    _foci: dict[Focus, None] = field(default_factory=dict, repr=False, compare=False)
    """The foci with derived data, least recently used first."""

    @classmethod
    def of(cls, sources: Iterable[Source]) -> Workspace:
        """A workspace of `sources`; two sources may not share a name."""
        workspace = cls()
        for source in sources:
            workspace.add(source)
        return workspace

    def add(self, source: Source) -> None:
        """Add `source`; its name must be new in this workspace."""
        if any(existing.name == source.name for existing in self.sources):
            raise BadInputError(
                f"{source.location}: a source named {source.name!r} is already loaded; "
                "give one of them another name (--name)"
            )
        self.sources.append(source)
        self.cache.clear()
        self._foci.clear()

    def derived(self, name: Hashable, focus: Focus | None, build: Callable[[], Derived]) -> Derived:
        """The data `name` derived from the sources for `focus` (None: for no
        focus), built by `build` on first use and kept; the data of foci past
        the FOCI_KEPT most recently used is let go."""
        if focus is not None:
            self._foci.pop(focus, None)
            self._foci[focus] = None
            while len(self._foci) > FOCI_KEPT:
                oldest = next(iter(self._foci))
                del self._foci[oldest]
                for key in [key for key in list(self.cache) if key[1] == oldest]:
                    self.cache.pop(key, None)
        key = (name, focus)
        if key not in self.cache:
            self.cache[key] = build()
        return self.cache[key]

    def source(self, name: str) -> Source:
        """The source called `name`."""
        for source in self.sources:
            if source.name == name:
                return source
        known = ", ".join(s.name for s in self.sources) or "none"
        raise BadInputError(f"no source named {name!r} in the workspace; loaded: {known}")


def unique_box_names(boxes_by_source: dict[str, list[Box]]) -> list[Box]:
    """Flatten per-source BOXes, prefixing the source name where names clash."""
    counts: dict[str, int] = {}
    for boxes in boxes_by_source.values():
        for box in boxes:
            counts[box.name] = counts.get(box.name, 0) + 1
    result: list[Box] = []
    for source_name, boxes in boxes_by_source.items():
        renamed = {
            box.name: make_identifier(f"{source_name}_{box.name}")
            for box in boxes
            if counts[box.name] > 1
        }
        for box in boxes:
            foreign_keys = [
                ForeignKey(fk.field, renamed.get(fk.ref_box, fk.ref_box), fk.ref_field)
                for fk in box.foreign_keys
            ]
            result.append(Box(renamed.get(box.name, box.name), box.frame, box.origin, foreign_keys))
    return result
