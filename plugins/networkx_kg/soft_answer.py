"""Reading the soft answer KG2Code puts in the last comment line of its code."""

from __future__ import annotations

import ast


def parse_soft_answer(code: str) -> list[list[str]] | None:
    """The answer stated by the last `# label: value` comment of `code`.

    `# length: 2` gives [["2"]]; a Python list, tuple or set literal after the
    colon (`# answer: ["Vertigo", "Rear Window"]`) gives one row per item;
    any other text is one value. None when there is no such comment. Used
    only when the code cannot run; the result is marked soft.
    """
    for line in reversed(code.splitlines()):
        text = line.strip()
        if not text.startswith("#"):
            continue
        label, colon, value = text.lstrip("#").partition(":")
        value = value.strip()
        if not colon or not label.strip() or not value:
            return None
        return [[item] for item in _values(value)]
    return None


def _values(text: str) -> list[str]:
    try:
        parsed = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return [text]
    if isinstance(parsed, list | tuple | set | frozenset):
        items = sorted(parsed, key=str) if isinstance(parsed, set | frozenset) else parsed
        return [str(item) for item in items]
    return [str(parsed)]
