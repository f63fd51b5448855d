"""What the processes sharing the local model's server know of each other.

One server runs per machine (per user), whatever the Pandora home: its
record (port, API key, pid, threads...) is a 0600 file in a 0700 runtime
folder, `PANDORA_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/pandora`, else
`<temp>/pandora-<uid>`. A lock file there serialises starting, reusing and
stopping it. A process using the server leaves a marker named by its pid
(`clients/<pid>`) while it does; the last one to leave writes when and with
which keep-alive it left (`last-use.json`); the server stops itself when no
marker is left and the keep-alive has passed since.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from pydantic import BaseModel, ValidationError

from agent.local_model.files import LocalModelError

DEFAULT_KEEP_ALIVE_SECONDS = 300.0
"""Like Ollama's default: a question five minutes after the last one is still warm."""


class ServerRecord(BaseModel):
    """The running server, as its clients find it. `api_key` is the secret
    every request must carry (the record is readable by its owner only)."""

    pid: int
    port: int
    api_key: str
    model_path: str
    threads: int
    context_tokens: int
    keep_alive_seconds: float
    started_at: float
    log_path: str
    home: str

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (`.../v1`)."""
        return f"http://127.0.0.1:{self.port}/v1"


class LastUse(BaseModel):
    """When the last client left, and how long it asked the server to stay."""

    at: float
    keep_alive_seconds: float


def runtime_dir() -> Path:
    """The folder of the record, the lock and the client markers, made 0700;
    one another user could read or replace is refused."""
    chosen = os.environ.get("PANDORA_RUNTIME_DIR")
    if chosen:
        folder = Path(chosen).expanduser()
    elif os.environ.get("XDG_RUNTIME_DIR"):
        folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "pandora"
    else:
        folder = Path(tempfile.gettempdir()) / f"pandora-{os.getuid()}"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    status = folder.stat()
    if status.st_uid != os.getuid() or stat.S_IMODE(status.st_mode) & 0o077:
        raise LocalModelError(
            f"{folder} must belong to you and be private (chmod 700) to hold the local "
            "model server's key; set PANDORA_RUNTIME_DIR to another folder"
        )
    return folder


def keep_alive_seconds() -> float:
    """`PANDORA_LOCAL_KEEP_ALIVE`: seconds the server stays idle before it
    stops (default 300; 0: as soon as the last client leaves)."""
    text = os.environ.get("PANDORA_LOCAL_KEEP_ALIVE")
    if not text:
        return DEFAULT_KEEP_ALIVE_SECONDS
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if value < 0:
        raise LocalModelError(f"PANDORA_LOCAL_KEEP_ALIVE={text!r} must be a number of seconds >= 0")
    return value


@contextlib.contextmanager
def machine_lock(wait: bool = True) -> Iterator[bool]:
    """Hold the lock of the server's record; with `wait` False, yields
    False at once when another process holds it."""
    with open(runtime_dir() / "server.lock", "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def read_record() -> ServerRecord | None:
    """The record of the server, None when there is none (or it is unreadable)."""
    try:
        return ServerRecord.model_validate_json((runtime_dir() / "server.json").read_text())
    except (OSError, ValidationError):
        return None


def write_record(record: ServerRecord) -> None:
    """Write the record, readable by its owner only, in one step."""
    _write_private(runtime_dir() / "server.json", record.model_dump_json())


def remove_record(pid: int) -> None:
    """Remove the record if it is the one of the server `pid`."""
    record = read_record()
    if record is not None and record.pid == pid:
        (runtime_dir() / "server.json").unlink(missing_ok=True)


def mark_using(pid: int) -> None:
    """Process `pid` is using the server: it must not stop."""
    folder = runtime_dir() / "clients"
    folder.mkdir(mode=0o700, exist_ok=True)
    (folder / str(pid)).touch()


def mark_left(pid: int, keep_alive: float) -> None:
    """Process `pid` no longer uses the server; the server may stop
    `keep_alive` seconds after the last client left."""
    (runtime_dir() / "clients" / str(pid)).unlink(missing_ok=True)
    record_last_use(LastUse(at=time.time(), keep_alive_seconds=keep_alive))


def record_last_use(last_use: LastUse) -> None:
    """Write when the server was last left and for how long it stays."""
    _write_private(runtime_dir() / "last-use.json", last_use.model_dump_json())


def read_last_use() -> LastUse | None:
    """When the last client left, None before any did."""
    try:
        return LastUse.model_validate_json((runtime_dir() / "last-use.json").read_text())
    except (OSError, ValidationError):
        return None


def clients_using() -> list[int]:
    """The pids of the live processes using the server; markers of dead ones are removed."""
    folder = runtime_dir() / "clients"
    alive = []
    for marker in folder.glob("*") if folder.is_dir() else []:
        if marker.name.isdigit() and pid_alive(int(marker.name)):
            alive.append(int(marker.name))
        else:
            marker.unlink(missing_ok=True)
    return sorted(alive)


def pid_alive(pid: int) -> bool:
    """Whether process `pid` exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ServerUse:
    """This process's use of the server: counted, so that several threads (two
    questions at once, a question and its LLM requests) share one marker,
    left when the last of them is done."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._marked = False

    def enter(self) -> None:
        """One more user in this process."""
        with self._lock:
            self._users += 1

    def mark(self) -> None:
        """The server is in use by this process (called holding `machine_lock`)."""
        with self._lock:
            if not self._marked:
                mark_using(os.getpid())
                self._marked = True

    def leave(self) -> None:
        """One user less; the last one leaves the server, which then keeps alive
        for this process's `PANDORA_LOCAL_KEEP_ALIVE`."""
        with self._lock:
            self._users -= 1
            if self._users == 0 and self._marked:
                self._marked = False
                mark_left(os.getpid(), keep_alive_seconds())

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Use the server within the block."""
        self.enter()
        try:
            yield
        finally:
            self.leave()


server_use = ServerUse()
"""This process's use of the local model's server."""


def _write_private(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as output:
        output.write(text)
    os.replace(partial, path)
