"""Executor overhead: the same programs run in-process with plain `exec` and
through the executor, on a small BOX and on a 1,000,000-row BOX.

Prints p50/p95 per call for both, the added overhead, and a worker's cold
start. Run: python benchmarks/executor.py [--repeat 1000]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from plugins import Workspace, get_registry, load_source
from plugins.executor import ExecutorPool

PROGRAMS = [
    "result = len(sales)",
    "result = sales.amount.sum()",
    "result = sales.amount.mean()",
    "result = sales.region.nunique()",
    "result = sales.iloc[0, 0]",
    "result = sales.columns.tolist()",
    "result = sales.shape[1]",
    "result = sales.region.iloc[:3]",
    "result = sales.amount.max() - sales.amount.min()",
    "result = sales.head(5)",
    "result = sales.tail(3).id",
    "result = sales.id.iloc[-1]",
    "result = sales.dtypes.astype(str).tolist()",
    "result = 1 + 1",
    "result = [1, 2, 3]",
    "result = sales.amount.iloc[:10].tolist()",
    "result = sales.loc[:4, ['id', 'region']]",
    "x = sales.amount.iloc[:100]\nresult = x[x > 50].count()",
    "result = sales.region.iloc[:100].value_counts().head(2)",
    "result = bool(sales.empty)",
]
"""20 programs whose own work does not grow with the BOX, so that a growing
overhead would show a per-call data copy."""


def write_box(directory: Path, rows: int) -> Path:
    """A CSV BOX of `rows` rows."""
    generator = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "id": np.arange(rows),
            "region": generator.choice(["north", "south", "east", "west"], rows),
            "amount": generator.integers(0, 100, rows),
        }
    )
    path = directory / "sales.csv"
    frame.to_csv(path, index=False)
    return path


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def plain_exec(workspace: Workspace, repeat: int) -> list[float]:
    """Per-call times of `exec` in this process, on the same namespace."""
    namespace = get_registry().representation("pandas").namespace(workspace)
    compiled = [compile(program, "<bench>", "exec") for program in PROGRAMS]
    samples = []
    for index in range(repeat):
        scope = dict(namespace)
        started = time.perf_counter()
        exec(compiled[index % len(compiled)], scope)
        samples.append(time.perf_counter() - started)
    return samples


def through_executor(pool: ExecutorPool, workspace: Workspace, repeat: int) -> list[float]:
    """Per-call times of `pool.execute`, worker already warm."""
    samples = []
    for index in range(repeat):
        started = time.perf_counter()
        outcome = pool.execute(PROGRAMS[index % len(PROGRAMS)], workspace)
        samples.append(time.perf_counter() - started)
        assert outcome.error is None, outcome.error
    return samples


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=1000)
    arguments = parser.parse_args()
    pool = ExecutorPool(max_workers=2)
    print(
        f"{'BOX':>10} {'exec p50':>9} {'exec p95':>9} {'executor p50':>13} "
        f"{'executor p95':>13} {'overhead p50':>13} {'cold start':>11}  (ms)"
    )
    with tempfile.TemporaryDirectory() as directory:
        for rows in (1_000, 1_000_000):
            box_directory = Path(directory) / str(rows)
            box_directory.mkdir()
            workspace = Workspace.of([load_source(str(write_box(box_directory, rows)))])
            started = time.perf_counter()
            pool.warm(workspace)
            cold = (time.perf_counter() - started) * 1000
            exec_p50, exec_p95 = percentiles(plain_exec(workspace, arguments.repeat))
            pool_p50, pool_p95 = percentiles(through_executor(pool, workspace, arguments.repeat))
            print(
                f"{rows:>10,} {exec_p50:>9.3f} {exec_p95:>9.3f} {pool_p50:>13.3f} "
                f"{pool_p95:>13.3f} {pool_p50 - exec_p50:>13.3f} {cold:>11.0f}"
            )
    pool.shutdown()


if __name__ == "__main__":
    main()
