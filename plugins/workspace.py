"""A `Workspace`: several sources asked about at once."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from plugins.errors import BadInputError
from plugins.model import Box, ForeignKey, Source
from plugins.names import make_identifier


@dataclass
class Workspace:
    """Sources that one question may span; BOX names are unique across them.

    When two sources yield the same BOX name, every clashing BOX is prefixed
    with its source name (`sales_orders`, `crm_orders`) and foreign keys are
    renamed to follow.
    """

    sources: list[Source] = field(default_factory=list)
    cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    """Data derived from the sources (BOXes, SQL connections), kept by the plugins."""

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
