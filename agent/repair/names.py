"""The one nearest name: how repair decides what an unknown name meant."""

from __future__ import annotations

import re
from collections.abc import Iterable

from rapidfuzz import fuzz, process

MIN_SIMILARITY = 80
"""Below this (rapidfuzz WRatio, 0-100) a name is not taken for a misspelling."""
MIN_MARGIN = 6
"""The best name must beat the second by this much, else the choice is ambiguous."""
SEPARATORS = re.compile(r"[\s_\-.]+")


def folded(name: str) -> str:
    """`name` compared loosely: case, spaces, underscores and dots ignored."""
    return SEPARATORS.sub("", name.casefold())


def nearest_name(missing: str, known: Iterable[str]) -> str | None:
    """The one name of `known` that `missing` most likely meant, or None.

    A name equal to `missing` but for case and separators wins outright
    (when only one is), then one that differs from it only by a plural
    ending (`student` for `Students`, which a fuzzy score ties with
    `Student_Enrolment`); otherwise the best fuzzy match counts only when it
    is close enough and clearly better than the next.
    """
    names = sorted(set(known))
    if missing in names or not names:
        return None
    for alike in (_same_but_for_case, _same_but_for_plural):
        same = [name for name in names if alike(folded(name), folded(missing))]
        if len(same) == 1:
            return same[0]
        if same:
            return None
    matches = process.extract(missing, names, scorer=fuzz.WRatio, processor=str.casefold, limit=2)
    if not matches or matches[0][1] < MIN_SIMILARITY:
        return None
    if len(matches) > 1 and matches[0][1] - matches[1][1] < MIN_MARGIN:
        return None
    return str(matches[0][0])


def _same_but_for_case(name: str, missing: str) -> bool:
    return name == missing


def _same_but_for_plural(name: str, missing: str) -> bool:
    return name in {missing + "s", missing + "es"} or missing in {name + "s", name + "es"}
