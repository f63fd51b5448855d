"""Text that is safe to print on a terminal, whatever program or file it came from.

Data and messages may come from untrusted files or programs; a raw escape
sequence could clear the screen, set the clipboard (OSC 52) or forge a line of
Pandora's own. This module imports nothing heavy: the CLI's start-up uses it.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls (8-bit CSI, OSC...), and the
# bidirectional overrides and isolates that reorder how a line reads.
UNSAFE_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """`text` with every control character but tab and newline written as an escape
    (`\\x1b`, `\\u202e`), so that printing it cannot drive the terminal."""
    return UNSAFE_CHARACTERS.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
