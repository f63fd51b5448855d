"""Stable hashes: demonstration ids, question keys and schema fingerprints.

They must not depend on the process (Python's `hash` is salted), on line
endings or on incidental whitespace, so every function normalises first.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_SPACES = re.compile(r"\s+")
_TRAILING_PUNCTUATION = " ?.!;:"


def normalise_question(question: str) -> str:
    """Lower case, one space between words, no trailing punctuation.

    Two phrasings that differ only in case, spacing or a final "?" are the
    same question for dedup and for the program cache.
    """
    text = unicodedata.normalize("NFKC", question).casefold()
    return _SPACES.sub(" ", text).strip().rstrip(_TRAILING_PUNCTUATION).strip()


def normalise_code(code: str) -> str:
    """Code with Unix line endings, no trailing spaces and no blank edges."""
    lines = code.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n")


def _digest(*parts: str, length: int = 32) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8"))
        hasher.update(b"\x1f")
    return hasher.hexdigest()[:length]


def demonstration_id(question: str, code: str, representation: str) -> str:
    """The id of a demonstration: a hash of its normalised question, code and
    representation, so adding the same demonstration twice stores it once."""
    return _digest(normalise_question(question), normalise_code(code), representation.strip())


def question_key(question: str) -> str:
    """A hash of the normalised question, the program cache's lookup key."""
    return _digest(normalise_question(question))


def schema_fingerprint(schema_text: str) -> str:
    """A hash of a structure-only schema rendering.

    It changes when a source gains, loses or retypes a field, which is when a
    demonstration written against it may no longer run.
    """
    lines = (_SPACES.sub(" ", line).strip() for line in schema_text.splitlines())
    return _digest("\n".join(line for line in lines if line), length=24)
