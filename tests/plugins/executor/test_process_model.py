"""The process model with real processes: the caller talks to a template,
each program runs in its own child, and no child outlives its template."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from plugins import Workspace, load_source
from plugins.executor import ExecutorPool


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_a_running_child_dies_with_its_template(tmp_path) -> None:
    table = tmp_path / "numbers.csv"
    table.write_text("n\n1\n2\n")
    workspace = Workspace.of([load_source(str(table))])
    pool = ExecutorPool(max_workers=1)
    try:
        pool.warm(workspace)
        (template,) = pool.template_pids()
        outcomes = []
        runner = threading.Thread(
            target=lambda: outcomes.append(
                pool.execute("while True:\n    pass", workspace, timeout_seconds=60)
            )
        )
        runner.start()
        # the spare receives the program and spins; the template forks the next one
        deadline = time.monotonic() + 30
        children: list[int] = []
        while len(children) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            children = [child for child in _children(template) if _alive(child)]
        assert len(children) == 2  # the one spinning, the one forked ahead for the next run
        os.kill(template, signal.SIGKILL)
        runner.join(10)
        deadline = time.monotonic() + 5
        while any(map(_alive, children)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_alive, children))
        assert outcomes and outcomes[0].error.type == "WorkerCrashed"
        after = pool.execute("result = int(numbers.n.sum())", workspace)  # a new template
        assert after.result == [[3]]
    finally:
        pool.shutdown()


def test_every_program_runs_in_a_process_of_its_own(tmp_path) -> None:
    """Process ids are not visible to programs; a value a program leaves on a
    class is, and it must be gone in the next run."""
    table = tmp_path / "numbers.csv"
    table.write_text("n\n1\n")
    workspace = Workspace.of([load_source(str(table))])
    pool = ExecutorPool(max_workers=1)
    try:
        leave = "k = pd.DataFrame\nk.pandora_mark = 1\nresult = k.pandora_mark"
        look = "result = hasattr(pd.DataFrame, 'pandora_mark')"
        assert pool.execute(leave, workspace).result == [[1]]
        assert pool.execute(look, workspace).result == [[False]]
    finally:
        pool.shutdown()


def test_a_caller_holding_over_a_thousand_descriptors_gets_its_answer(tmp_path) -> None:
    """Channels numbered past 1024 (a long-lived server, a test worker) are
    waited on with poll: select refuses them."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"the descriptor limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = [os.open(os.devnull, os.O_RDONLY) for _ in range(1100)]
    table = tmp_path / "numbers.csv"
    table.write_text("n\n1\n2\n")
    pool = ExecutorPool(max_workers=1)
    try:
        run = pool.execute("result = numbers['n'].sum()", Workspace.of([load_source(str(table))]))
        assert run.error is None and run.result == [[3]]
    finally:
        pool.shutdown()
        for descriptor in held:
            os.close(descriptor)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
