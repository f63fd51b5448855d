"""Executor overhead: the same programs run in-process with plain `exec` and
through the executor (a fresh locked-down process per program), on BOXes of
1,000 rows, 1,000,000 rows and about 1 GB, with the cost of forking a
process that holds the workspace shown on its own.

Two ways of calling: back to back (the next call is sent as soon as the last
result is read) and paced (a pause between calls, as an agent or a user
makes them: the next run's process is then forked and locked down before
the call arrives). Overhead = executor - exec, per percentile.

Run: python benchmarks/executor.py [--repeat 200] [--pause-ms 50] [--skip-large]
"""

from __future__ import annotations

import argparse
import gc
import os
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
    "result = sales.region.iloc[:1000].nunique()",
    "result = sales.iloc[0, 0]",
    "result = sales.columns.tolist()",
    "result = sales.shape[1]",
    "result = sales.region.iloc[:3]",
    "result = sales.amount.iloc[:1000].max() - sales.amount.iloc[:1000].min()",
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
"""20 programs whose own work grows little with the BOX (a full-column sum
or mean is the exception, in both columns), so that a growing overhead would
show a per-call copy of the data."""

FILLER_COLUMNS = 10
SIZES = {"1,000 rows": 1_000, "1,000,000 rows": 1_000_000, "~1 GB": 10_000_000}


def write_box(directory: Path, rows: int) -> Path:
    """A Parquet BOX `sales` of `rows` rows (id, region, amount and float fillers)."""
    generator = np.random.default_rng(0)
    columns: dict[str, object] = {
        "id": np.arange(rows),
        "region": pd.Categorical(generator.choice(["north", "south", "east", "west"], rows)),
        "amount": generator.integers(0, 100, rows),
    }
    for index in range(FILLER_COLUMNS):
        columns[f"value_{index}"] = generator.random(rows)
    path = directory / "sales.parquet"
    pd.DataFrame(columns).to_parquet(path, index=False)
    return path


def percentiles(samples: list[float]) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def plain_exec(namespace: dict, repeat: int) -> list[float]:
    """Per-call times of `exec` in this process, on the same namespace."""
    compiled = [compile(program, "<bench>", "exec") for program in PROGRAMS]
    samples = []
    for index in range(repeat):
        scope = dict(namespace)
        started = time.perf_counter()
        exec(compiled[index % len(compiled)], scope)
        samples.append(time.perf_counter() - started)
    return samples


def through_executor(
    pool: ExecutorPool, workspace: Workspace, repeat: int, pause: float
) -> list[float]:
    """Per-call times of `pool.execute`, template already warm."""
    samples = []
    for index in range(repeat):
        time.sleep(pause)
        started = time.perf_counter()
        outcome = pool.execute(PROGRAMS[index % len(PROGRAMS)], workspace)
        samples.append(time.perf_counter() - started)
        assert outcome.error is None, outcome.error
    return samples


def fork_cost(repeat: int) -> tuple[float, float]:
    """p50 of `os.fork()` in this process (which holds the workspace, as a
    template does) and of fork until the child runs its first line, in ms."""
    gc.freeze()
    forks, ready = [], []
    for _ in range(repeat):
        read_end, write_end = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            os.write(write_end, repr(time.monotonic()).encode())
            os._exit(0)
        forked = time.monotonic()
        os.close(write_end)
        child_started = float(os.read(read_end, 64))
        os.close(read_end)
        os.waitpid(pid, 0)
        forks.append(forked - started)
        ready.append(child_started - started)
    gc.unfreeze()
    return statistics.median(forks) * 1000, statistics.median(ready) * 1000


def main() -> None:
    """Measure and print one table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--pause-ms", type=float, default=50.0)
    parser.add_argument("--skip-large", action="store_true", help="leave out the ~1 GB BOX")
    arguments = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; times in ms")
    header = (
        f"{'BOX':>15} {'loaded MB':>9} {'calls':>7} {'exec p50':>9} {'exec p95':>9}"
        f" {'exec. p50':>10} {'exec. p95':>10} {'added p50':>10} {'added p95':>10} {'fork()':>7}"
        f" {'fork->run':>10} {'cold':>7}"
    )
    print(header)
    with tempfile.TemporaryDirectory() as directory:
        for label, rows in SIZES.items():
            if arguments.skip_large and rows > 1_000_000:
                continue
            box_directory = Path(directory) / str(rows)
            box_directory.mkdir()
            workspace = Workspace.of([load_source(str(write_box(box_directory, rows)))])
            namespace = get_registry().representation("pandas").namespace(workspace)
            size = namespace["sales"].memory_usage(deep=True).sum() / 2**20
            fork_p50, ready_p50 = fork_cost(min(arguments.repeat, 50))
            exec_p50, exec_p95 = percentiles(plain_exec(namespace, arguments.repeat))
            pool = ExecutorPool(max_workers=1)
            started = time.perf_counter()
            pool.warm(workspace)
            cold = (time.perf_counter() - started) * 1000
            for calls, pause in (("b2b", 0.0), ("paced", arguments.pause_ms / 1000)):
                p50, p95 = percentiles(through_executor(pool, workspace, arguments.repeat, pause))
                print(
                    f"{label:>15} {size:>9.1f} {calls:>7} {exec_p50:>9.3f} {exec_p95:>9.3f}"
                    f" {p50:>10.3f} {p95:>10.3f} {p50 - exec_p50:>10.3f} {p95 - exec_p95:>10.3f}"
                    f" {fork_p50:>7.2f} {ready_p50:>10.2f} {cold:>7.0f}"
                )
            pool.shutdown()
            del namespace, workspace
            gc.collect()


if __name__ == "__main__":
    main()
