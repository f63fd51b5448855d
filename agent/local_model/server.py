"""The local model's server: a child process on 127.0.0.1, started on first
use and stopped when this process exits, or one kept warm by
`pandora model serve` and found through `$PANDORA_HOME/models/server.json`."""

from __future__ import annotations

import atexit
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from agent.local_model.files import CHUNK_BYTES, LocalModelError, Progress, ensure_model_file

READY_TIMEOUT_SECONDS = 180.0
STOP_TIMEOUT_SECONDS = 10.0
LOG_TAIL_CHARACTERS = 600
DEFAULT_THREADS = 2
DEFAULT_CONTEXT_TOKENS = 8192

_lock = threading.Lock()
_server: LocalServer | None = None


@dataclass
class LocalServer:
    """A running local model server. `process` is None for a server another
    process started (`pandora model serve`): this one only uses it."""

    port: int
    pid: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (`.../v1`)."""
        return f"http://127.0.0.1:{self.port}/v1"

    def answering(self) -> bool:
        """Whether the server answers its health check now."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2) as reply:
                return reply.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        """Stop a server this process started."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def server_settings() -> tuple[int, int]:
    """Threads and context tokens: `PANDORA_LOCAL_THREADS` (default 2; 1 is
    steadier on a busy machine) and `PANDORA_LOCAL_CONTEXT` (default 8192)."""
    try:
        threads = int(os.environ.get("PANDORA_LOCAL_THREADS") or DEFAULT_THREADS)
        context_tokens = int(os.environ.get("PANDORA_LOCAL_CONTEXT") or DEFAULT_CONTEXT_TOKENS)
    except ValueError:
        raise LocalModelError(
            "PANDORA_LOCAL_THREADS and PANDORA_LOCAL_CONTEXT must be whole numbers"
        ) from None
    return threads, context_tokens


def start_server(progress: Progress | None = None, announce: bool = True) -> LocalServer:
    """Join the model if needed, start its server in a child process on a
    free port of 127.0.0.1, and wait until it answers."""
    model = ensure_model_file(progress)
    threads, context_tokens = server_settings()
    port = _free_port()
    log_path = state_dir() / "server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    if announce:
        print("pandora: starting the local model (Qwen2.5-Coder-1.5B)...", file=sys.stderr)
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agent.local_model.child",
                str(model),
                str(port),
                str(threads),
                str(context_tokens),
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
        )
    server = LocalServer(port=port, pid=process.pid, process=process)
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while not server.answering():
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            raise LocalModelError(
                f"the local model server did not start: {_tail(log_path)} (log: {log_path})"
            )
        time.sleep(0.2)
    return server


def ensure_local_server(progress: Progress | None = None) -> LocalServer:
    """The local server this process uses: one already kept warm by
    `pandora model serve`, else one started now and stopped at exit."""
    global _server
    with _lock:
        if _server is not None and _server.answering():
            return _server
        warm = warm_server()
        if warm is not None:
            _server = warm
            return warm
        _server = start_server(progress or stderr_progress)
        atexit.register(_server.stop)
        return _server


def state_dir() -> Path:
    """Where this Pandora home records its warm server and the server's log."""
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    return home / "models"


def warm_server() -> LocalServer | None:
    """The server `pandora model serve` keeps for this Pandora home, if it answers."""
    try:
        record = json.loads((state_dir() / "server.json").read_text())
        server = LocalServer(port=int(record["port"]), pid=int(record["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return server if _pid_alive(server.pid) and server.answering() else None


def record_warm_server(server: LocalServer) -> Path:
    """Tell later `pandora ask` runs of this home where the warm server is."""
    path = state_dir() / "server.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"port": server.port, "pid": os.getpid()}))
    return path


def forget_warm_server() -> None:
    """Remove the warm server's record (it is stopping)."""
    (state_dir() / "server.json").unlink(missing_ok=True)


def stderr_progress(done: int, total: int) -> None:
    """Joining progress on stderr: a line rewritten at every 5% on a terminal,
    else one line at the start and one at the end."""
    percent = done * 100 // max(total, 1)
    step = 5 if sys.stderr.isatty() else 100
    previous = (done - CHUNK_BYTES) * 100 // max(total, 1)
    if done > CHUNK_BYTES and percent // step == previous // step:
        return
    end = "\n" if done >= total else ""
    carriage = "\r" if sys.stderr.isatty() else ""
    if not carriage and done < total:
        end = "\n"
    print(
        f"{carriage}pandora: preparing the local model (once): {percent:3d}% "
        f"of {total // 1_000_000} MB",
        end=end,
        file=sys.stderr,
        flush=True,
    )


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _tail(log_path: Path) -> str:
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return "no log"
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-3:])[-LOG_TAIL_CHARACTERS:] or "no output"
