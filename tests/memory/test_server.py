"""A team memory on a real Chroma server (`chroma run`), through PANDORA_MEMORY_URL."""

import socket
import subprocess
import sys
import time

import pytest

from memory.backend import MemoryStoreError
from memory.retrieval import search_demonstrations
from memory.seed import load_seed_demonstrations
from memory.settings import MemorySettings
from memory.store import DemonstrationStore
from tests.memory.conftest import make_demo


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from chromadb.cli.cli import app; app()", "run",
         "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("chroma run did not start listening within 30 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_two_clients_share_one_memory_on_a_chroma_server(chroma_server, tmp_path):
    settings = MemorySettings(home=tmp_path / "unused-home", server_url=chroma_server)
    first = DemonstrationStore.open(settings)
    assert first.count() == len(load_seed_demonstrations())
    added = make_demo("How many bridges cross the river?", verified="gold")
    first.add(added)
    second = DemonstrationStore.open(settings)
    assert second.get(added.id) == added
    hits = search_demonstrations(second, "How many bridges cross the river?", 1)
    assert hits[0].demonstration.id == added.id
    assert not (tmp_path / "unused-home").exists()


def test_an_unreachable_server_is_one_clear_error(tmp_path):
    settings = MemorySettings(home=tmp_path, server_url=f"http://127.0.0.1:{_free_port()}")
    with pytest.raises(MemoryStoreError, match="unreachable"):
        DemonstrationStore.open(settings)


def test_a_shared_server_never_serves_the_program_cache(chroma_server, tmp_path):
    """Issue 25: anyone reaching the server can write a record claiming origin
    `cli`; none of its records is known to come from this machine's user."""
    from memory import find_cached_program

    settings = MemorySettings(home=tmp_path / "unused-home", server_url=chroma_server)
    store = DemonstrationStore.open(settings, load_seed=False)
    claimed = make_demo("How many albums are there?", "result = 1234", answer=[[1234]])
    store.add(claimed.model_copy(update={"verified": "approved", "origin": "cli"}))
    assert store.get(claimed.id).origin == "cli"
    assert find_cached_program(store, "How many albums are there?", "fp-1") is None
    local = DemonstrationStore.open(MemorySettings(home=tmp_path / "home"), load_seed=False)
    local.add(claimed)
    assert find_cached_program(local, "How many albums are there?", "fp-1") == claimed
