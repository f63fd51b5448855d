"""A real executor pool over real files in a temporary directory, and the
checks that an attack did nothing: no new file, no connection, data unchanged,
the pool still answering."""

from __future__ import annotations

import hashlib
import socket
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from plugins import Workspace, load_source
from plugins.executor import ExecutorPool

PEOPLE_CSV = """id,name,age,city_id,joined
1,Ada,36,10,2020-01-15
2,Bob,25,20,2021-06-01
3,Cy,41,10,2019-11-30
4,Dee,29,30,2022-03-12
5,Eve,52,20,2018-07-04
"""


@dataclass
class Listener:
    """A local TCP server that counts the connections it accepts."""

    port: int
    connections: list[str] = field(default_factory=list)


@dataclass
class Sandbox:
    """The pool, its workspace and the things an attack must not change."""

    pool: ExecutorPool
    workspace: Workspace
    sql_workspace: Workspace
    directory: Path
    listener: Listener
    files_before: set[Path]
    digests: dict[Path, str]

    def run(self, code: str, timeout: float = 5.0):
        """Run pandas code on the BOXes."""
        return self.pool.execute(code, self.workspace, "pandas", timeout_seconds=timeout)

    def assert_nothing_done(self) -> None:
        """No file appeared or changed, no connection arrived, the pool answers
        and the data a program sees is the original."""
        assert set(self.directory.rglob("*")) == self.files_before
        assert {p: _digest(p) for p in self.digests} == self.digests
        assert self.listener.connections == []
        check = self.run("result = [len(people), int(people.age.sum()), people.name.iloc[0]]")
        assert check.error is None, check.error
        assert check.result == [[5], [183], ["Ada"]]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_sources(directory: Path) -> tuple[Path, Path]:
    csv_path = directory / "people.csv"
    csv_path.write_text(PEOPLE_CSV)
    db_path = directory / "geo.sqlite"
    with sqlite3.connect(db_path) as connection:
        connection.executescript(
            """
            CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, country TEXT);
            INSERT INTO cities VALUES (10, 'Paris', 'FR'), (20, 'Lyon', 'FR'), (30, 'Rome', 'IT');
            """
        )
    connection.close()
    return csv_path, db_path


@pytest.fixture(scope="session")
def listener() -> Iterator[Listener]:
    """A TCP server on localhost; attacks try to reach it."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    found = Listener(server.getsockname()[1])
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, address = server.accept()
            except OSError:
                continue
            found.connections.append(str(address))
            connection.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield found
    stop.set()
    thread.join()
    server.close()


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory, listener: Listener) -> Iterator[Sandbox]:
    """One pool for the whole security battery (workers are replaced as attacks kill them)."""
    directory = tmp_path_factory.mktemp("sandbox")
    csv_path, db_path = _write_sources(directory)
    workspace = Workspace.of([load_source(str(csv_path)), load_source(str(db_path))])
    sql_workspace = Workspace.of([load_source(str(db_path))])
    pool = ExecutorPool(max_workers=2)
    pool.warm(workspace)
    found = Sandbox(
        pool=pool,
        workspace=workspace,
        sql_workspace=sql_workspace,
        directory=directory,
        listener=listener,
        files_before=set(directory.rglob("*")),
        digests={csv_path: _digest(csv_path), db_path: _digest(db_path)},
    )
    yield found
    pool.shutdown()


@pytest.fixture
def in_sandbox_directory(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Sandbox:
    """The sandbox, with the test's working directory set to its directory."""
    monkeypatch.chdir(sandbox.directory)
    return sandbox
