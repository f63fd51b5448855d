"""Foreign keys as links between named tables or BOXes, the graph that both
joined views (`plugins.joined_views`) and the agent's join-path feedback
(`agent.join_paths`) walk."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Link:
    """One foreign key seen from one end: `from_box[from_field]` equals
    `to_box[to_field]` (a BOX or a table)."""

    from_box: str
    from_field: str
    to_box: str
    to_field: str

    def reversed(self) -> Link:
        """The same key seen from its other end."""
        return Link(self.to_box, self.to_field, self.from_box, self.from_field)


def links_by_start(
    keys: Iterable[Link], names: set[str], both_directions: bool
) -> dict[str, list[Link]]:
    """The links leaving each name, in the order of `keys`: keys between two
    of `names` only (no self-reference), and each key also from its other end
    when `both_directions`."""
    links: dict[str, list[Link]] = {}
    for key in keys:
        if key.to_box not in names or key.from_box not in names or key.to_box == key.from_box:
            continue
        links.setdefault(key.from_box, []).append(key)
        if both_directions:
            links.setdefault(key.to_box, []).append(key.reversed())
    return links
