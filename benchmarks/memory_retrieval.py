"""Retrieval quality of the memory: same-pattern precision@10.

A labelled set (benchmarks/data/memory_questions.jsonl, 320 questions over
many domains) tags each question with its reasoning pattern (count, filter,
argmax/argmin, group-aggregate, join, set difference, multi-hop, temporal).
Every question is stored as a demonstration; then each question is asked in
turn (leave-one-out) and precision@10 is the share of the 10 retrieved
demonstrations that share its pattern. Random retrieval is the floor (about
1/8 with eight balanced patterns).

    python benchmarks/memory_retrieval.py
    python benchmarks/memory_retrieval.py --sentence-transformers /path/to/all-MiniLM-L6-v2
    python benchmarks/memory_retrieval.py --openai-model text-embedding-3-small

Options that need a model or a server are measured only when given (or, for
Chroma's ONNX MiniLM, when its files are on disk); the others print why not.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from memory.embeddings import get_embedding
from memory.models import Demonstration
from memory.retrieval import search_demonstrations
from memory.settings import MemorySettings
from memory.store import DemonstrationStore
from plugins.errors import PandoraError

QUESTIONS = Path(__file__).parent / "data" / "memory_questions.jsonl"
K = 10


@dataclass(frozen=True)
class Labelled:
    """One question of the labelled set."""

    question: str
    pattern: str
    kind: str


@dataclass(frozen=True)
class Configuration:
    """One row of the table: an embedding, masking on or off, a retrieval mode."""

    label: str
    embedding: str
    masking: bool
    mode: str = "cross"


def load_questions(path: Path = QUESTIONS) -> list[Labelled]:
    """The labelled questions."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Labelled(**json.loads(line)) for line in lines if line.strip()]


def as_demonstration(item: Labelled, index: int) -> Demonstration:
    """A stand-in demonstration for a labelled question (its code is irrelevant here)."""
    return Demonstration(
        question=item.question,
        kind=item.kind,
        representation="pandas",
        code=f"result = {index}",
        dataset="retrieval-benchmark",
        verified="executed",
    )


def precision_by_pattern(config: Configuration, items: list[Labelled]) -> dict[str, float]:
    """Mean same-pattern precision@K per pattern (and 'all') for one configuration."""
    with tempfile.TemporaryDirectory() as home:
        settings = MemorySettings(home=Path(home), masking=config.masking)
        store = DemonstrationStore.open(
            settings, embedding=get_embedding(config.embedding), load_seed=False
        )
        demos = [as_demonstration(item, i) for i, item in enumerate(items)]
        store.add_many(demos)
        pattern_of = {demo.id: item.pattern for demo, item in zip(demos, items, strict=True)}
        scores: dict[str, list[float]] = defaultdict(list)
        for demo, item in zip(demos, items, strict=True):
            hits = search_demonstrations(store, item.question, K + 1, mode=config.mode)
            others = [h.demonstration.id for h in hits if h.demonstration.id != demo.id][:K]
            same = sum(pattern_of[other] == item.pattern for other in others)
            scores[item.pattern].append(same / K)
            scores["all"].append(same / K)
    return {pattern: sum(values) / len(values) for pattern, values in scores.items()}


def configurations(arguments: argparse.Namespace) -> tuple[list[Configuration], list[str]]:
    """The configurations to measure, and notes on those that cannot be."""
    configs = [Configuration("random", "hashed", False, mode="random")]
    for spec in ("hashed", "hashed:1024", "hashed:256"):
        for masking in (False, True):
            configs.append(Configuration(spec, spec, masking))
    notes = []
    optional = {
        "sentence-transformers": arguments.sentence_transformers,
        "openai": arguments.openai_model,
    }
    for family, value in optional.items():
        if value:
            for masking in (False, True):
                configs.append(
                    Configuration(f"{family}:{Path(value).name}", f"{family}:{value}", masking)
                )
        else:
            notes.append(
                f"{family}: not measured (give --{family.replace('openai', 'openai-model')})"
            )
    try:
        get_embedding("onnx-minilm").embed(["probe"])
    except PandoraError as error:
        notes.append(f"onnx-minilm: not measured ({error})")
    else:
        configs.extend(Configuration("onnx-minilm", "onnx-minilm", m) for m in (False, True))
    return configs, notes


def main() -> None:
    """Measure every configuration and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentence-transformers", metavar="PATH", help="a local model folder")
    parser.add_argument("--openai-model", metavar="MODEL", help="an embeddings model name")
    arguments = parser.parse_args()
    items = load_questions()
    patterns = sorted({item.pattern for item in items})
    configs, notes = configurations(arguments)
    print(f"{len(items)} labelled questions, {len(patterns)} patterns, precision@{K}\n")
    header = ["embedding", "masking", "mode", "all", *patterns, "seconds"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for config in configs:
        started = time.perf_counter()
        scores = precision_by_pattern(config, items)
        elapsed = time.perf_counter() - started
        cells = [f"{scores[p]:.3f}" for p in ["all", *patterns]]
        masking = "yes" if config.masking else "no"
        row = [config.label, masking, config.mode, *cells, f"{elapsed:.1f}"]
        print("| " + " | ".join(row) + " |", flush=True)
    for note in notes:
        print(f"\n{note}", file=sys.stderr)


if __name__ == "__main__":
    main()
