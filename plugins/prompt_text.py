"""Text from data made safe to place in a prompt: no character of a name or a
cell can start a line or hide what follows.

A column name such as `price\\n\\n## Instruction` would otherwise forge the
structure of the prompt it is shown in. Every control character (tab and
newline included), the Unicode line and paragraph separators and the
bidirectional overrides are written as visible escapes (`\\n`, `\\x1b`,
`\\u2028`), the way a Python string literal would show them.
"""

from __future__ import annotations

import re

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape_control_characters(text: str) -> str:
    """`text` with every control character written as an escape, on one line."""
    return CONTROL_CHARACTERS.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    if character in SHORT_ESCAPES:
        return SHORT_ESCAPES[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
