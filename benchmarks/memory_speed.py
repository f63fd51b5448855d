"""Memory speed at scale: add throughput and query latency over 100,000 demonstrations.

Demonstrations are made from the labelled benchmark questions with varied
names and numbers (so that no two are alike), each with a schema and code of
realistic size, and added through `DemonstrationStore.add_many` (embedding,
dedup check and Chroma write included). Queries are new questions answered
by `search_demonstrations` at K=10, the agent's path. Target: query p95 under
50 ms.

    python benchmarks/memory_speed.py [--count 100000] [--queries 300]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from memory.fingerprints import schema_fingerprint
from memory.models import Demonstration
from memory.retrieval import find_cached_program, search_demonstrations
from memory.settings import MemorySettings
from memory.store import DemonstrationStore

QUESTIONS = Path(__file__).parent / "data" / "memory_questions.jsonl"
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri", "Eun-ji", "Femi", "Greta", "Hiro", "Ines", "Jonas"]
PLACES = ["Lisbon", "Osaka", "Quito", "Accra", "Oslo", "Perth", "Lyon", "Pune", "Cork", "Graz"]
KINDS = {"table": "pandas", "database": "sql", "kg": "networkx"}
SCHEMA = "\n".join(f"    'field_{i}': [...int64]," for i in range(12))


def synthetic_demonstrations(count: int, seed: int = 7) -> list[Demonstration]:
    """`count` distinct demonstrations built from the labelled questions."""
    rng = random.Random(seed)
    lines = QUESTIONS.read_text(encoding="utf-8").splitlines()
    items = [json.loads(line) for line in lines if line.strip()]
    demos = []
    for index in range(count):
        item = items[index % len(items)]
        question = (
            f"{item['question'].rstrip('?')} for {rng.choice(NAMES)} in {rng.choice(PLACES)} "
            f"during {1900 + index % 125} (case {index})?"
        )
        schema = f"# BOX t{index % 50}\nt{index % 50} = pd.DataFrame({{\n{SCHEMA}\n}})"
        demos.append(
            Demonstration(
                question=question,
                kind=item["kind"],
                representation=KINDS[item["kind"]],
                schema=schema,
                schema_fingerprint=schema_fingerprint(schema),
                reasoning="1. Select the rows.\n2. Aggregate them.\n3. Return the answer.",
                code=f"result = t{index % 50}[t{index % 50}['field_1'] > {index}]['field_2'].sum()",
                answer=[[str(index)]],
                dataset="speed-benchmark",
                verified="executed",
            )
        )
    return demos


def percentile(values: list[float], fraction: float) -> float:
    """The `fraction` quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def time_calls(calls: list, repeat_first: int = 5) -> list[float]:
    """Milliseconds per call, after a few warm-up calls that are not counted."""
    for call in calls[:repeat_first]:
        call()
    timings = []
    for call in calls:
        started = time.perf_counter()
        call()
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    """Fill a store, time adds and queries, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    arguments = parser.parse_args()
    demos = synthetic_demonstrations(arguments.count)
    questions = [f"{d.question.split(' for ')[0]} for someone new?" for d in demos[:300]]
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as home:
        store = DemonstrationStore.open(MemorySettings(home=Path(home)), load_seed=False)
        started = time.perf_counter()
        store.add_many(demos)
        add_seconds = time.perf_counter() - started
        assert store.count() == arguments.count
        picked = [rng.choice(questions) for _ in range(arguments.queries)]
        cross = time_calls([lambda q=q: search_demonstrations(store, q, 10) for q in picked])
        same = time_calls(
            [
                lambda q=q: search_demonstrations(store, q, 10, kind="kg", mode="same")
                for q in picked
            ]
        )
        cached = [rng.choice(demos) for _ in range(arguments.queries)]
        cache = time_calls(
            [
                lambda d=d: find_cached_program(store, d.question, d.schema_fingerprint)
                for d in cached
            ]
        )
        again = time.perf_counter()
        store.add_many(demos[:10_000])
        duplicate_seconds = time.perf_counter() - again
    print(f"{arguments.count} demonstrations, embedding {store.embedding_identity}\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| add: total seconds | {add_seconds:.1f} |")
    print(f"| add: demonstrations / second | {arguments.count / add_seconds:,.0f} |")
    print(f"| re-add 10,000 duplicates: seconds | {duplicate_seconds:.1f} |")
    for label, timings in (
        ("query K=10, cross (agent path)", cross),
        ("query K=10, same kind (filtered)", same),
        ("program cache lookup", cache),
    ):
        p50, p95 = statistics.median(timings), percentile(timings, 0.95)
        print(f"| {label}: p50 / p95 ms | {p50:.1f} / {p95:.1f} |")


if __name__ == "__main__":
    main()
