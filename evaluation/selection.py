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


def sample_examples(
    examples: Sequence[Example],
    seed: int,
    count: int | None = None,
    fraction: float | None = None,
) -> list[Example]:
    """A seeded random sample (`count` examples or a `fraction` of them), kept in file
    order; everything when neither is given."""
    size = len(examples)
    if count is not None:
        size = min(count, size)
    elif fraction is not None:
        size = max(1, round(fraction * len(examples))) if examples else 0
    chosen = set(random.Random(seed).sample(range(len(examples)), size))
    return [example for position, example in enumerate(examples) if position in chosen]


def run_order(examples: Sequence[Example], seed: int) -> list[Example]:
    """The examples in the order a run answers them: shuffled with `seed`, so
    that a run stopped early (or still going) has answered a random part of
    the sample rather than the databases that come first in the file."""
    order = list(examples)
    random.Random(seed).shuffle(order)
    return order
