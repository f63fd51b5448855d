"""Start-up time of `pandora` commands, next to `python -c "import pandas"`.

Every command is a fresh process, as a user runs it; all of them are run in
turn, --repeat rounds, and the median of each is kept. The baseline (importing pandas, which any
command on a table pays anyway) is measured in the same run, so the ratios
hold on any machine. Targets (issue 9): `pandora --help` under 0.3 s;
`inspect` and `sql` on a small source within 1.5x of importing pandas.
The CPU seconds (user + system) of each command are shown too: on a machine
shared with other jobs, they move less with the load than the wall time does.

Run: python benchmarks/startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
EXAMPLES = REPOSITORY / "examples"
PANDORA = [sys.executable, "-m", "cli"]
HELP_TARGET_SECONDS = 0.3
SMALL_SOURCE_TARGET_RATIO = 1.5


def commands(small_table: Path) -> dict[str, list[str]]:
    """What is timed, by label; the first entry is the baseline."""
    return {
        "python -c 'import pandas' (baseline)": [sys.executable, "-c", "import pandas"],
        "pandora --help": [*PANDORA, "--help"],
        "pandora inspect small.csv": [*PANDORA, "inspect", str(small_table)],
        "pandora sql small.csv": [*PANDORA, "sql", str(small_table), "SELECT COUNT(*) FROM small"],
        "pandora inspect music.sqlite": [*PANDORA, "inspect", str(EXAMPLES / "music.sqlite")],
        "pandora sql music.sqlite": [
            *PANDORA,
            "sql",
            str(EXAMPLES / "music.sqlite"),
            "SELECT COUNT(*) FROM album",
        ],
    }


def median_seconds(
    commands_by_label: dict[str, list[str]], repeat: int
) -> dict[str, tuple[float, float]]:
    """The median wall and CPU time of each command over `repeat` rounds; a round
    runs every command once, so that a change in the machine's load touches all
    of them alike."""
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands_by_label}
    for _ in range(repeat):
        for label, command in commands_by_label.items():
            times[label].append(timed_run(command))
    return {
        label: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs))
        for label, runs in times.items()
    }


def timed_run(command: list[str]) -> tuple[float, float]:
    """Run `command` once: its wall seconds, and its CPU seconds (user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=REPOSITORY)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    """Time every command and print seconds and the ratio to the baseline."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per command (median kept)")
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as folder:
        small_table = Path(folder) / "small.csv"
        small_table.write_text("city,country,population\nLima,Peru,9750000\nOslo,Norway,709000\n")
        timed = median_seconds(commands(small_table), repeat)
    baseline_wall, baseline_cpu = next(iter(timed.values()))
    print(f"median of {repeat} runs each, Python {sys.version.split()[0]}")
    print(
        f"{'command':40} {'seconds':>8} {'x import pandas':>16} {'cpu s':>6} {'cpu x':>6}  target"
    )
    for label, (seconds, cpu) in timed.items():
        ratio = seconds / baseline_wall
        print(
            f"{label:40} {seconds:8.3f} {ratio:16.2f} {cpu:6.3f} {cpu / baseline_cpu:6.2f}  "
            f"{verdict(label, seconds, ratio)}"
        )


def verdict(label: str, seconds: float, ratio: float) -> str:
    """The issue's target for this command, and whether this run met it."""
    if label == "pandora --help":
        met = seconds < HELP_TARGET_SECONDS
        return f"< {HELP_TARGET_SECONDS} s: {'met' if met else 'MISSED'}"
    if "small.csv" in label:
        met = ratio <= SMALL_SOURCE_TARGET_RATIO
        return f"<= {SMALL_SOURCE_TARGET_RATIO}x: {'met' if met else 'MISSED'}"
    return ""


if __name__ == "__main__":
    main()
