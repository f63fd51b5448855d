"""Whether a result's shape contradicts its question: "the 2 heaviest
penguins" answered with one row, "the names of ..." answered with ids only.

Both readings are conservative: when unsure they find nothing, since a
contradiction only lowers a candidate's vote (`agent.voting`).

A count is read from `top N`, `bottom N`, `first N`, `last N` and `the N
<superlative>` (`the 2 heaviest`, `the three most common`), N being 1-100 in
digits or one..ten in words. There is no count when the phrase follows
`of`/`among`/`in` ("the cheapest of the 3 most expensive"), when N is a
span of time or a share ("the last 2 years", "top 10%"), when the question
groups ("each", "per", "every") or asks for an aggregate before the phrase
("the total revenue of the top 3 customers"), or when two phrases disagree.

Names are asked by `name(s) of` / `title(s) of` with no word `id`/`ids` in
the question; the result contradicts it when every column is named as an
id (`id`, `artist_id`, `ArtistId`) and every cell is an integer.

A number is asked by `how many` / `how much` when the question does not
group ("each", "per", "every"); the result contradicts it when none of its
cells holds a number: no int or float, and no text with a digit or a number
word ("Leafield" read as the answer to "how many ships were wrecked").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

NUMBER_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
MAX_COUNT = 100
NUMBER = r"(?:\d{1,3}|" + "|".join(NUMBER_WORDS) + r")\b"
COUNT_PHRASE = re.compile(
    rf"\b(?:(?:top|bottom|first|last)\s+(?P<listed>{NUMBER})"
    rf"|the\s+(?P<ranked>{NUMBER})\s+(?P<superlative>most|least|fewest|[a-z]+est)\b)",
    re.IGNORECASE,
)
NOT_SUPERLATIVES = frozenset(
    {
        "chest",
        "contest",
        "forest",
        "guest",
        "harvest",
        "interest",
        "midwest",
        "protest",
        "quest",
        "request",
        "rest",
        "test",
        "west",
    }
)
"""Words ending in -est that rank nothing ("the 3 interest rates")."""
WITHIN = re.compile(r"\b(?:of|among|in|within|from|between)\s+(?:the\s+)?$", re.IGNORECASE)
SPAN_AFTER = re.compile(
    r"^\s*(?:%|percent|per\s*cent|(?:calendar\s+|fiscal\s+)?(?:second|minute|hour|day|week|"
    r"month|quarter|year|decade|centur|season)\w*\b)",
    re.IGNORECASE,
)
GROUPING = re.compile(r"\b(?:each|per|every)\b", re.IGNORECASE)
AGGREGATE = re.compile(
    r"\b(?:how many|how much|count|number of|total|sum|average|mean|median|combined|"
    r"percentage|proportion|ratio|difference)\b",
    re.IGNORECASE,
)
ASKS_NAMES = re.compile(r"\b(?:names?|titles?)\s+of\b", re.IGNORECASE)
MENTIONS_IDS = re.compile(r"\bids?\b", re.IGNORECASE)
ID_COLUMN = re.compile(r"(?:^|_)[iI][dD]$|[a-z](?:Id|ID)$")
ASKS_NUMBER = re.compile(r"\bhow\s+(?:many|much)\b", re.IGNORECASE)
NUMBER_IN_TEXT = re.compile(
    r"\d|\b(?:zero|none|no|" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE
)


def asked_count(question: str) -> int | None:
    """The number of rows `question` explicitly asks for, or None when it
    asks for no clear count (see the module docstring for the rule)."""
    if GROUPING.search(question):
        return None
    counts = set()
    for match in COUNT_PHRASE.finditer(question):
        superlative = match.group("superlative")
        if superlative is not None and superlative.casefold() in NOT_SUPERLATIVES:
            continue
        before = question[: match.start()]
        if WITHIN.search(before) or AGGREGATE.search(before):
            return None
        number = "listed" if match.group("listed") is not None else "ranked"
        if SPAN_AFTER.match(question[match.end(number) :]):
            return None
        counts.add(_number(match.group(number)))
    if len(counts) != 1:
        return None
    count = counts.pop()
    return count if 1 <= count <= MAX_COUNT else None


def contradicts(question: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> bool:
    """Whether a result of `rows` under `columns` contradicts `question`: it
    asks for an explicit count of rows and the result has another, it asks
    for names and the result holds integer ids only, or it asks how many or
    how much and no cell holds a number."""
    count = asked_count(question)
    if count is not None and len(rows) != count:
        return True
    if not rows:
        return False
    return _ids_for_names(question, columns, rows) or _no_number_for_how_many(question, rows)


def _no_number_for_how_many(question: str, rows: Sequence[Sequence[object]]) -> bool:
    if not ASKS_NUMBER.search(question) or GROUPING.search(question):
        return False
    return not any(_holds_number(cell) for row in rows for cell in row)


def _holds_number(cell: object) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int | float):
        return True
    return isinstance(cell, str) and NUMBER_IN_TEXT.search(cell) is not None


def _ids_for_names(question: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> bool:
    if not ASKS_NAMES.search(question) or MENTIONS_IDS.search(question) or not columns:
        return False
    if not all(ID_COLUMN.search(column) for column in columns):
        return False
    return all(isinstance(cell, int) and not isinstance(cell, bool) for row in rows for cell in row)


def _number(text: str) -> int:
    return NUMBER_WORDS.get(text.casefold()) or int(text)
