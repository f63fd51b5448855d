"""Real processes: concurrent writers lose nothing, a killed import leaves a valid store."""

import os
import signal
import subprocess
import sys
import textwrap

from memory.models import Demonstration
from memory.seed import load_seed_demonstrations
from memory.store import DemonstrationStore
from tests.conftest import REPOSITORY

WRITER = textwrap.dedent(
    """
    import sys
    from memory.models import Demonstration
    from memory.store import DemonstrationStore

    tag, count = sys.argv[1], int(sys.argv[2])
    store = DemonstrationStore.open()
    for i in range(count):
        store.add(Demonstration(question=f"Question {i} from writer {tag}?", code=f"result = {i}",
                                kind="table", representation="pandas", answer=[[str(i)]]))
    """
)

IMPORTER = textwrap.dedent(
    """
    import sys
    from memory.models import Demonstration
    from memory.store import DemonstrationStore

    store = DemonstrationStore.open(load_seed=False)
    demos = (Demonstration(question=f"Imported question {i}?", code=f"result = {i}",
                           kind="kg", representation="networkx") for i in range(int(sys.argv[1])))
    store.add_many(demos, batch_size=100, on_batch=lambda c: print(c.added, flush=True))
    """
)


IMPORT_SIZE = 1500
"""Demonstrations the killed import was adding: it dies after 300, far from done."""


def _python(script: str, *arguments: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", script, *arguments],
        cwd=REPOSITORY,
        env=os.environ.copy(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_processes_adding_at_the_same_time_lose_nothing(settings):
    writers = [_python(WRITER, tag, "100") for tag in ("a", "b")]
    for writer in writers:
        _, stderr = writer.communicate(timeout=240)
        assert writer.returncode == 0, stderr
    store = DemonstrationStore.open(settings)
    assert store.count() == len(load_seed_demonstrations()) + 200
    written = store.find({"verified": "unverified"})
    expected = {f"Question {i} from writer {tag}?" for tag in ("a", "b") for i in range(100)}
    assert {d.question for d in written} == expected


def test_an_import_killed_half_way_leaves_a_valid_store_with_what_was_committed(settings):
    importer = _python(IMPORTER, str(IMPORT_SIZE))
    committed = 0
    for line in importer.stdout:
        committed = int(line)
        if committed >= 300:
            importer.send_signal(signal.SIGKILL)
            break
    importer.wait(timeout=60)
    assert importer.returncode == -signal.SIGKILL
    store = DemonstrationStore.open(settings, load_seed=False)
    count = store.count()
    assert count >= committed and count % 100 == 0 and count < IMPORT_SIZE
    assert sum(1 for _ in store.iter_all()) == count
    resumed = store.add_many(
        Demonstration(
            question=f"Imported question {i}?",
            code=f"result = {i}",
            kind="kg",
            representation="networkx",
        )
        for i in range(IMPORT_SIZE)
    )
    assert resumed.duplicates == count and store.count() == IMPORT_SIZE
