"""Choosing which examples a run uses: a seeded sample, and a split by database so that
a memory built from some databases is evaluated on others."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from evaluation.datasets.example import Example
from plugins.errors import BadInputError

Part = Literal["build", "eval"]
BUILD_SHARE = 0.5


def split_by_database(examples: Sequence[Example], seed: int, part: Part) -> list[Example]:
    """The examples whose database falls in `part`: the databases are shuffled with
    `seed` and the first half builds the memory, the rest is evaluated. The same seed
    gives `pandora memory build --by-database` and `pandora eval --by-database`
    disjoint databases."""
    databases = sorted({example.database for example in examples})
    random.Random(seed).shuffle(databases)
    cut = max(1, round(len(databases) * BUILD_SHARE)) if len(databases) > 1 else len(databases)
    chosen = set(databases[:cut] if part == "build" else databases[cut:])
    return [example for example in examples if example.database in chosen]


def only_databases(examples: Sequence[Example], databases: Sequence[str]) -> list[Example]:
    """The examples asked of one of `databases`. Datasets built from the same
    databases (Spider4SPARQL from Spider) split differently by `--by-database`;
    naming the databases keeps a memory from one away from questions of the other."""
    known = {example.database for example in examples}
    unknown = [name for name in databases if name not in known]
    if unknown:
        raise BadInputError(
            f"no questions on database {unknown[0]!r}; the dataset has: {', '.join(sorted(known))}"
        )
    return [example for example in examples if example.database in databases]


def only_questions(examples: Sequence[Example], ids: Sequence[str]) -> list[Example]:
    """The examples of `ids`, which must all be in `examples` (the sample):
    questions of a finished run asked again, after a change that touches only
    them, keep the sample and seed they were drawn with."""
    known = {example.id for example in examples}
    unknown = [question for question in ids if question not in known]
    if unknown:
        raise BadInputError(f"question {unknown[0]!r} is not in the sample")
    return [example for example in examples if example.id in ids]


def without_databases_of(examples: Sequence[Example], held_out: Sequence[Example]) -> list[Example]:
    """The examples on no database that a `held_out` example uses: a memory
    built from one split (WikiTableQuestions' training tables) then shares no
    table or database with the split it is evaluated on."""
    databases = {example.database for example in held_out}
    return [example for example in examples if example.database not in databases]


def sample_examples(
    examples: Sequence[Example],
    seed: int,
    count: int | None = None,
    fraction: float | None = None,
) -> list[Example]:
    """A seeded random sample (`count` examples or a `fraction` of them), kept in file
    order; everything when neither is given.

    Examples of several variants (TempTabQA-C's original and counterfactual
    tables) are sampled per variant in equal shares, so that the counterfactual
    gap compares samples of one size: `count` 200 is 100 of each.
    """
    positions_by_variant: dict[str, list[int]] = {}
    for position, example in enumerate(examples):
        positions_by_variant.setdefault(example.variant or "", []).append(position)
    groups = [positions_by_variant[variant] for variant in sorted(positions_by_variant)]
    chosen: set[int] = set()
    for positions, share in zip(groups, _equal_shares(count, len(groups)), strict=True):
        size = len(positions)
        if share is not None:
            size = min(share, size)
        elif fraction is not None:
            size = max(1, round(fraction * len(positions))) if positions else 0
        chosen |= {
            positions[drawn] for drawn in random.Random(seed).sample(range(len(positions)), size)
        }
    return [example for position, example in enumerate(examples) if position in chosen]


def _equal_shares(count: int | None, parts: int) -> list[int | None]:
    """`count` cut into `parts` shares that differ by at most one, larger first."""
    if count is None or parts == 0:
        return [None] * parts
    return [count // parts + (1 if part < count % parts else 0) for part in range(parts)]


def run_order(examples: Sequence[Example], seed: int) -> list[Example]:
    """The examples in the order a run answers them: shuffled with `seed`, so
    that a run stopped early (or still going) has answered a random part of
    the sample rather than the databases that come first in the file."""
    order = list(examples)
    random.Random(seed).shuffle(order)
    return order
