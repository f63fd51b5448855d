"""How fast sources become BOXes, against plain pandas in the same run.

Generates a 1,000,000-row CSV and the same data in SQLite, then times
`load_source` + BOX construction against `pd.read_csv` / `pd.read_sql`, each
measurement in its own fresh process (so peak memory is that step's alone),
best of --repeat runs. Also times schema rendering of a generated 200-table
database (pandas BOX code and SQL DDL).

    python benchmarks/load_sources.py [--rows 1000000] [--repeat 3] [--workdir DIR]

Prints a table with seconds, the ratio to plain pandas, the like-for-like
ratio (to pandas that also parses the dates) and peak RSS (MiB).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

STEP = r"""
import json, resource, sys, time
kind, path = sys.argv[1], sys.argv[2]
import pandas as pd
if kind.startswith("pandora"):
    # importing the project and finding its plugins happens once per process: not timed
    from plugins import Workspace, get_registry, load_source
    from plugins.pandas_box import workspace_boxes
    get_registry()
started = time.perf_counter()
if kind == "pandas_csv":
    frame = pd.read_csv(path)
elif kind == "pandas_csv_dates":
    frame = pd.read_csv(path)
    frame["taken"] = pd.to_datetime(frame["taken"], format="ISO8601")
elif kind == "pandas_sql":
    import sqlite3
    frame = pd.read_sql("SELECT * FROM measurements", sqlite3.connect(path))
elif kind == "pandas_sql_dates":
    import sqlite3
    frame = pd.read_sql("SELECT * FROM measurements", sqlite3.connect(path))
    frame["taken"] = pd.to_datetime(frame["taken"], format="ISO8601")
else:
    frame = workspace_boxes(Workspace.of([load_source(path)]))[0].frame
elapsed = time.perf_counter() - started
peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": elapsed, "peak_mib": peak_mib, "rows": len(frame)}))
"""


def generate_data(directory: Path, rows: int) -> tuple[Path, Path]:
    """A CSV and a SQLite file with the same `rows` rows of mixed columns."""
    rng = np.random.default_rng(7)
    seconds = rng.integers(0, 10**8, rows)
    frame = pd.DataFrame(
        {
            "id": np.arange(rows),
            "station": rng.choice([f"station_{i}" for i in range(500)], rows),
            "reading": rng.normal(20, 5, rows).round(3),
            "count": rng.integers(0, 1000, rows),
            "taken": pd.Timestamp("2020-01-01") + pd.to_timedelta(seconds, "s"),
            "note": rng.choice(["ok", "check", "late", ""], rows),
        }
    )
    csv_path = directory / "measurements.csv"
    frame.to_csv(csv_path, index=False)
    sqlite_path = directory / "measurements.sqlite"
    sqlite_path.unlink(missing_ok=True)  # a --workdir of an earlier run
    connection = sqlite3.connect(sqlite_path)
    connection.execute(
        "CREATE TABLE measurements (id INTEGER PRIMARY KEY, station TEXT, reading REAL, "
        "count INTEGER, taken DATETIME, note TEXT)"
    )
    connection.executemany(
        "INSERT INTO measurements VALUES (?, ?, ?, ?, ?, ?)",
        frame.assign(taken=frame["taken"].astype(str)).itertuples(index=False, name=None),
    )
    connection.commit()
    connection.close()
    return csv_path, sqlite_path


def generate_wide_database(directory: Path, tables: int) -> Path:
    """A database of `tables` small tables chained by foreign keys."""
    path = directory / "wide.sqlite"
    path.unlink(missing_ok=True)
    connection = sqlite3.connect(path)
    for number in range(tables):
        reference = f", parent_id INTEGER REFERENCES t{number - 1}(id)" if number else ""
        connection.execute(
            f"CREATE TABLE t{number} (id INTEGER PRIMARY KEY, name TEXT, value REAL{reference})"
        )
        connection.executemany(
            f"INSERT INTO t{number} (id, name, value) VALUES (?, ?, ?)",
            [(i, f"row {i}", i / 3) for i in range(20)],
        )
    connection.commit()
    connection.close()
    return path


def measure(kind: str, path: Path, repeat: int) -> dict[str, float]:
    """Best time of `repeat` fresh processes, with the peak memory of that run."""
    runs = []
    for _ in range(repeat):
        completed = subprocess.run(
            [sys.executable, "-c", STEP, kind, str(path)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parent.parent,
        )
        runs.append(json.loads(completed.stdout.strip().splitlines()[-1]))
    return min(runs, key=lambda run: run["seconds"])


def time_schema_rendering(path: Path) -> dict[str, float]:
    """Seconds to load a 200-table database and render each representation's schema."""
    from plugins import Workspace, get_registry, load_source

    timings = {}
    started = time.perf_counter()
    workspace = Workspace.of([load_source(str(path))])
    timings["load schema"] = time.perf_counter() - started
    for name in ("sql", "pandas"):
        started = time.perf_counter()
        text = get_registry().representation(name).render_schema(workspace)
        timings[f"render {name} ({len(text):,} chars)"] = time.perf_counter() - started
    started = time.perf_counter()
    get_registry().representation("pandas").render_schema(workspace)
    timings["render pandas again (cached BOXes)"] = time.perf_counter() - started
    return timings


def main() -> None:
    """Run the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--workdir", type=Path)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = arguments.workdir or Path(temporary)
        print(f"generating {arguments.rows:,} rows in {directory} ...", file=sys.stderr)
        csv_path, sqlite_path = generate_data(directory, arguments.rows)
        print(f"{'step':<34}{'seconds':>9}{'ratio':>8}{'like-for-like':>15}{'peak MiB':>10}")
        # `*_dates` baselines also parse the date column, as load_source does: the
        # like-for-like ratio (the target is 1.3x) is against them
        for baseline, same_types, ours, path in (
            ("pandas_csv", "pandas_csv_dates", "pandora_csv", csv_path),
            ("pandas_sql", "pandas_sql_dates", "pandora_sql", sqlite_path),
        ):
            runs = {
                label: measure(label, path, arguments.repeat) for label in (baseline, same_types)
            }
            runs[ours] = measure(ours, path, arguments.repeat)
            for label, run in runs.items():
                ratio = run["seconds"] / runs[baseline]["seconds"]
                like_for_like = run["seconds"] / runs[same_types]["seconds"]
                print(
                    f"{label:<34}{run['seconds']:>9.3f}{ratio:>7.2f}x"
                    f"{like_for_like:>14.2f}x{run['peak_mib']:>10.0f}"
                )
        wide = generate_wide_database(directory, arguments.tables)
        print(f"\nschema of a {arguments.tables}-table database")
        for label, seconds in time_schema_rendering(wide).items():
            print(f"{label:<50}{seconds:>9.3f} s")


if __name__ == "__main__":
    main()
