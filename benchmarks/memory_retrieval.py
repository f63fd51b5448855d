"""Retrieval quality of the memory: same-pattern precision@10 and paraphrases found.

Two sets, every embedding measured with masking off and on:

- The labelled set (benchmarks/data/memory_questions.jsonl, 320 questions
  over many domains) tags each question with its reasoning pattern (count,
  filter, argmax/argmin, group-aggregate, join, set difference, multi-hop,
  temporal). Every question is stored as a demonstration; then each is asked
  in turn (leave-one-out) and precision@10 is the share of the 10 retrieved
  that share its pattern. Random retrieval is the floor (about 1/8).
- Paraphrase pairs (with --spider-dev): Spider dev's questions that share one
  gold query on one database (483 pairs; queries compared after trimming,
  case-folding and collapsing spaces). One phrasing of each pair is stored,
  the other is asked; "first" is the share of pairs whose stored phrasing is
  retrieved first, "top 10" the share where it is among the 10 retrieved.

    python benchmarks/memory_retrieval.py --spider-dev ../shared/datasets/spider/dev.json
    python benchmarks/memory_retrieval.py --embedding hashed:1024 --embedding e5
    python benchmarks/memory_retrieval.py --sentence-transformers /path/to/all-MiniLM-L6-v2

Everything goes through a real Chroma store in a temporary folder and
`search_demonstrations`, the agent's path. Options that need a model or a
server are measured only when given; the others print why not.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from memory.embeddings import DEFAULT_EMBEDDING, get_embedding
from memory.models import Demonstration
from memory.retrieval import search_demonstrations
from memory.settings import DEFAULT_MASKING, MemorySettings
from memory.store import DemonstrationStore
from plugins.errors import PandoraError

QUESTIONS = Path(__file__).parent / "data" / "memory_questions.jsonl"
EMBEDDINGS = ("hashed", "e5", "e5+hashed")
K = 10


@dataclass(frozen=True)
class Labelled:
    """One question of the labelled set."""

    question: str
    pattern: str
    kind: str


@dataclass(frozen=True)
class Paraphrase:
    """Two phrasings of one question: `stored` is added, `asked` is searched."""

    stored: str
    asked: str


@dataclass(frozen=True)
class Configuration:
    """One row of a table: an embedding, masking on or off, a retrieval mode."""

    label: str
    embedding: str
    masking: bool
    mode: str = "cross"

    @property
    def is_default(self) -> bool:
        """Whether this is what a user gets without configuring anything."""
        return (
            self.embedding == DEFAULT_EMBEDDING
            and self.masking == DEFAULT_MASKING
            and self.mode == "cross"
        )


def load_questions(path: Path = QUESTIONS) -> list[Labelled]:
    """The labelled questions."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Labelled(**json.loads(line)) for line in lines if line.strip()]


def load_paraphrases(spider_dev: Path) -> list[Paraphrase]:
    """Pairs of Spider dev questions with the same gold query on the same database."""
    phrasings: dict[tuple[str, str], list[str]] = defaultdict(list)
    for example in json.loads(spider_dev.read_text(encoding="utf-8")):
        query = " ".join(example["query"].strip().rstrip(";").casefold().split())
        phrasings[(example["db_id"], query)].append(example["question"])
    return [Paraphrase(*questions) for questions in phrasings.values() if len(questions) == 2]


def as_demonstration(question: str, kind: str, index: int) -> Demonstration:
    """A stand-in demonstration for a question (its code is irrelevant here)."""
    return Demonstration(
        question=question,
        kind=kind,
        representation="pandas",
        code=f"result = {index}",
        dataset="retrieval-benchmark",
        verified="executed",
    )


@contextmanager
def filled_store(
    config: Configuration, demonstrations: list[Demonstration]
) -> Iterator[DemonstrationStore]:
    """A temporary store holding `demonstrations`, embedded as `config` says."""
    with tempfile.TemporaryDirectory() as home:
        settings = MemorySettings(home=Path(home), masking=config.masking)
        store = DemonstrationStore.open(
            settings, embedding=get_embedding(config.embedding), load_seed=False
        )
        store.add_many(demonstrations)
        yield store


def precision_by_pattern(config: Configuration, items: list[Labelled]) -> dict[str, float]:
    """Mean same-pattern precision@K per pattern (and 'all') for one configuration."""
    demos = [as_demonstration(item.question, item.kind, i) for i, item in enumerate(items)]
    pattern_of = {demo.id: item.pattern for demo, item in zip(demos, items, strict=True)}
    scores: dict[str, list[float]] = defaultdict(list)
    with filled_store(config, demos) as store:
        for demo, item in zip(demos, items, strict=True):
            hits = search_demonstrations(store, item.question, K + 1, mode=config.mode)
            others = [h.demonstration.id for h in hits if h.demonstration.id != demo.id][:K]
            same = sum(pattern_of[other] == item.pattern for other in others)
            scores[item.pattern].append(same / K)
            scores["all"].append(same / K)
    return {pattern: sum(values) / len(values) for pattern, values in scores.items()}


def paraphrases_found(config: Configuration, pairs: list[Paraphrase]) -> tuple[float, float]:
    """The shares of pairs whose stored phrasing is retrieved first, and in the top K."""
    demos = [as_demonstration(pair.stored, "database", i) for i, pair in enumerate(pairs)]
    first = in_top = 0
    with filled_store(config, demos) as store:
        for demo, pair in zip(demos, pairs, strict=True):
            found = [h.demonstration.id for h in search_demonstrations(store, pair.asked, K)]
            first += found[:1] == [demo.id]
            in_top += demo.id in found
    return first / len(pairs), in_top / len(pairs)


def configurations(arguments: argparse.Namespace) -> tuple[list[Configuration], list[str]]:
    """The embeddings to measure (each masked and not), and notes on those that cannot be."""
    specs = [(spec, spec) for spec in arguments.embedding or EMBEDDINGS]
    notes = []
    optional = {
        "sentence-transformers": arguments.sentence_transformers,
        "openai": arguments.openai_model,
    }
    for family, value in optional.items():
        if value:
            specs.append((f"{family}:{Path(value).name}", f"{family}:{value}"))
        else:
            notes.append(
                f"{family}: not measured (give --{family.replace('openai', 'openai-model')})"
            )
    try:
        get_embedding("onnx-minilm").embed(["probe"])
    except PandoraError as error:
        notes.append(f"onnx-minilm: not measured ({error})")
    else:
        specs.append(("onnx-minilm", "onnx-minilm"))
    configs = [
        Configuration(label, spec, masking) for label, spec in specs for masking in (False, True)
    ]
    return configs, notes


def row(config: Configuration, cells: list[str]) -> str:
    """One markdown row; the default configuration in bold."""
    label = f"**{config.label} (default)**" if config.is_default else config.label
    masking = "yes" if config.masking else "no"
    return "| " + " | ".join([label, masking, config.mode, *cells]) + " |"


def print_labelled_table(configs: list[Configuration], items: list[Labelled]) -> None:
    """Precision@K on the labelled set, per pattern, random retrieval first."""
    patterns = sorted({item.pattern for item in items})
    print(f"Labelled set: {len(items)} questions, {len(patterns)} patterns, precision@{K}\n")
    header = ["embedding", "masking", "mode", "all", *patterns, "seconds"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for config in [Configuration("random", "hashed", False, mode="random"), *configs]:
        started = time.perf_counter()
        scores = precision_by_pattern(config, items)
        elapsed = time.perf_counter() - started
        cells = [f"{scores[p]:.3f}" for p in ["all", *patterns]]
        print(row(config, [*cells, f"{elapsed:.1f}"]), flush=True)


def print_paraphrase_table(configs: list[Configuration], pairs: list[Paraphrase]) -> None:
    """Paraphrases found first and in the top K."""
    print(f"\nParaphrase pairs: {len(pairs)} (Spider dev, one gold query per pair)\n")
    header = ["embedding", "masking", "mode", "found first", f"in top {K}", "seconds"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for config in configs:
        started = time.perf_counter()
        first, in_top = paraphrases_found(config, pairs)
        elapsed = time.perf_counter() - started
        print(row(config, [f"{first:.1%}", f"{in_top:.1%}", f"{elapsed:.1f}"]), flush=True)


def main() -> None:
    """Measure every configuration and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spider-dev", type=Path, metavar="PATH", help="Spider's dev.json")
    parser.add_argument(
        "--embedding",
        action="append",
        metavar="SPEC",
        help=f"a PANDORA_EMBEDDING value (repeat; default: {', '.join(EMBEDDINGS)})",
    )
    parser.add_argument("--sentence-transformers", metavar="PATH", help="a local model folder")
    parser.add_argument("--openai-model", metavar="MODEL", help="an embeddings model name")
    parser.add_argument("--skip-labelled", action="store_true", help="paraphrase pairs only")
    arguments = parser.parse_args()
    configs, notes = configurations(arguments)
    if not arguments.skip_labelled:
        print_labelled_table(configs, load_questions())
    if arguments.spider_dev:
        print_paraphrase_table(configs, load_paraphrases(arguments.spider_dev))
    else:
        notes.append("paraphrase pairs: not measured (give --spider-dev PATH/dev.json)")
    for note in notes:
        print(f"\n{note}", file=sys.stderr)


if __name__ == "__main__":
    main()
