"""Quoting the names a query wrote bare that SQL cannot read bare.

WikiTableQuestions-like tables have columns such as `Area (km²)` or
`Low grade`; the schema shows them quoted, and a small model often writes
them bare (`WHERE t.Area (km²) > 10000`), which no database parses. Every
such name of the schema in scope that appears bare outside the query's
string literals and quoted names is put in double quotes, longest name
first, so `Area (km²)` is never split into `Area`.
"""

from __future__ import annotations

import re

from plugins import Box

PLAIN_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
QUOTED_PARTS = re.compile(r"""('(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\])""")


def quote_bare_names(code: str, boxes: list[Box]) -> tuple[str, tuple[str, ...]]:
    """`code` with every bare name of `boxes` (tables and their columns) that
    is not a plain identifier put in double quotes, and the names quoted."""
    names = {box.name for box in boxes} | {
        str(column) for box in boxes for column in box.frame.columns
    }
    quoted = []
    for name in sorted(names, key=len, reverse=True):
        if PLAIN_IDENTIFIER.fullmatch(name) or not name.strip():
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        parts = QUOTED_PARTS.split(code)
        changed = False
        replacement = _double_quoted(name)
        for index in range(0, len(parts), 2):  # even parts lie outside quotes
            replaced = pattern.sub(
                lambda _match, quoted_name=replacement: quoted_name, parts[index]
            )
            changed |= replaced != parts[index]
            parts[index] = replaced
        if changed:
            code = "".join(parts)
            quoted.append(name)
    return code, tuple(quoted)


def _double_quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
