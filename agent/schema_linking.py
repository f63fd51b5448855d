"""Schema linking: for big schemas, show the LLM only the BOXes (or tables)
a question needs.

The BOXes most similar to the question (embedding of the box name and its
field names, plus a bonus when the question names the box) are kept, then the
foreign-key closure adds the BOXes they refer to and the bridge BOXes that
join two kept ones, so every join the answer may need stays in the prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from memory.embeddings import get_embedding
from plugins.model import SchemaItem

NAMED_BONUS = 0.5
BLOCK_NAME = re.compile(
    r"^(?:# BOX (\w+)|CREATE (?:TABLE|VIEW)\s+[\"`]?([^\s\"`(]+))", re.IGNORECASE
)


def link_schema(
    question: str, items: Sequence[SchemaItem], keep: int, embedding_spec: str | None = None
) -> list[str]:
    """The names of the items to show for `question`, in schema order."""
    embedding = get_embedding(embedding_spec)
    vectors = embedding.embed([question, *(item.description() for item in items)])
    scores = vectors[1:] @ vectors[0]
    lowered = question.casefold()
    bonus = np.array([NAMED_BONUS if _named(item.name, lowered) else 0.0 for item in items])
    ranked = np.argsort(-(scores + bonus), kind="stable")
    kept = {items[index].name for index in ranked[:keep]}
    return [item.name for item in items if item.name in foreign_key_closure(kept, items)]


def foreign_key_closure(kept: set[str], items: Sequence[SchemaItem]) -> set[str]:
    """`kept`, the items they refer to (transitively), and bridge items whose
    foreign keys reach two or more kept items."""
    by_name = {item.name: item for item in items}
    closed = set(kept)
    pending = list(kept)
    while pending:
        item = by_name.get(pending.pop())
        for reference in item.references if item else ():
            if reference not in closed:
                closed.add(reference)
                pending.append(reference)
    bridges = {item.name for item in items if len(set(item.references) & kept) >= 2}
    return closed | bridges


def keep_blocks(schema_text: str, names: Sequence[str]) -> str:
    """`schema_text` (BOX code or DDL, blocks separated by blank lines)
    without the blocks of BOXes or tables not in `names`."""
    wanted = set(names)
    blocks = [block for block in schema_text.split("\n\n") if block.strip()]
    return "\n\n".join(block for block in blocks if _block_name(block) in wanted | {None})


def _block_name(block: str) -> str | None:
    match = BLOCK_NAME.match(block.lstrip())
    if match is None:
        return None
    return match.group(1) or match.group(2)


def _named(name: str, lowered_question: str) -> bool:
    words = name.casefold().replace("_", " ")
    return words in lowered_question or words.rstrip("s") + "s" in lowered_question
