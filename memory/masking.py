"""Masking entity names and literal values in a question before embedding.

"Which films did Ridley Scott direct after 1990?" and "Which albums did
Aino Virtanen release after 2012?" share a reasoning pattern, not names.
KG2Code masks the head entity before retrieving demonstrations; this module
does the same without a model: quoted text, numbers and dates, and runs of
capitalised words that do not start the question become placeholders.
"""

from __future__ import annotations

import re

VALUE = "<value>"
NUMBER = "<number>"
ENTITY = "<entity>"

_QUOTED = re.compile(r"\"[^\"]+\"|“[^”]+”|'[^']+'(?!\w)|‘[^’]+’")
_NUMBER = re.compile(r"(?<![\w<])[-+]?\d[\d,.:/-]*\d%?(?![\w>])|(?<![\w<])\d(?![\w>])")
_TOKEN = re.compile(r"<\w+>|[\w'’-]+|[^\w\s]", re.UNICODE)
_LINKERS = {"of", "the", "de", "la", "del", "van", "von", "da", "di", "le"}


def mask_question(question: str) -> str:
    """`question` with values, numbers and entity names replaced by placeholders."""
    text = _QUOTED.sub(VALUE, question)
    text = _NUMBER.sub(NUMBER, text)
    return _mask_capitalised_runs(text)


def _mask_capitalised_runs(text: str) -> str:
    tokens = _TOKEN.findall(text)
    masked: list[str] = []
    in_entity = False
    for position, token in enumerate(tokens):
        starts_sentence = position == 0 or tokens[position - 1] in {".", "?", "!", ":"}
        capitalised = (token[:1].isupper() and not token.isupper()) or _is_acronym(token)
        if capitalised and not starts_sentence:
            if not in_entity:
                masked.append(ENTITY)
            in_entity = True
            continue
        if in_entity and token.casefold() in _LINKERS and _next_is_capitalised(tokens, position):
            continue
        in_entity = False
        masked.append(token)
    return " ".join(masked)


def _is_acronym(token: str) -> bool:
    return len(token) >= 2 and token.isupper() and token.isalpha()


def _next_is_capitalised(tokens: list[str], position: int) -> bool:
    following = tokens[position + 1] if position + 1 < len(tokens) else ""
    return following[:1].isupper()
