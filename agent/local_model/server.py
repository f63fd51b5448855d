"""The local model's shared server: found, or started in the background by
the first process that needs it, under the machine lock, so that one server
runs per machine whatever the Pandora home (`agent.local_model.sharing`).
It stops itself after its keep-alive; `stop_server` stops it at once."""

from __future__ import annotations

import atexit
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agent.local_model.files import CHUNK_BYTES, LocalModelError, Progress, ensure_model_file
from agent.local_model.sharing import (
    ServerRecord,
    clients_using,
    keep_alive_seconds,
    machine_lock,
    pid_alive,
    read_last_use,
    read_record,
    remove_record,
    server_use,
)

READY_TIMEOUT_SECONDS = 180.0
HEALTH_TIMEOUT_SECONDS = 10.0
HEALTH_WAIT_SECONDS = 30.0
"""A live server that does not answer its health check in this long is hung."""
STOP_TIMEOUT_SECONDS = 10.0
LOG_TAIL_CHARACTERS = 600
DEFAULT_CONTEXT_TOKENS = 8192
CHILD_MODULE = "agent.local_model.child"

_children: dict[int, subprocess.Popen[bytes]] = {}
"""Servers this process started, so that one that ended is reaped, not seen as alive."""
_warned_busy = False


@dataclass
class LocalServer:
    """The shared server, held by this process until `release` or `stop`
    (for callers that talk to it directly: `pandora model serve`, benchmarks,
    the real-model tests)."""

    record: ServerRecord
    held: bool = True

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (`.../v1`)."""
        return self.record.base_url

    @property
    def api_key(self) -> str:
        """The key every request to it must carry."""
        return self.record.api_key

    @property
    def pid(self) -> int:
        """The server's process id."""
        return self.record.pid

    def answering(self) -> bool:
        """Whether it answers its health check now."""
        return answering(self.record.port)

    def release(self) -> None:
        """This process no longer holds it: it keeps alive, then stops by itself."""
        if self.held:
            self.held = False
            server_use.leave()

    def stop(self) -> None:
        """Stop it now, for every process sharing it."""
        self.release()
        stop_server(self.record)


BUSY_WINDOW_SECONDS = 0.3


def fitted_threads() -> tuple[int, str | None]:
    """Threads for a new server: `PANDORA_LOCAL_THREADS`, else the cores
    free now (cores less those busy over the last moment, at least 1), and a
    warning when the machine is too busy for the local model to be quick."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    busy = busy_cores(cores)
    free = cores - busy
    warning = None
    if free < 1:
        warning = (
            f"the machine is busy ({busy:.1f} of {cores} cores in use): "
            "the local model will answer slowly"
        )
    text = os.environ.get("PANDORA_LOCAL_THREADS")
    if text:
        if not text.isdigit() or int(text) < 1:
            raise LocalModelError(f"PANDORA_LOCAL_THREADS={text!r} must be a whole number >= 1")
        return int(text), warning
    return max(1, min(cores, int(free + 0.5))), warning


def busy_cores(cores: int, window_seconds: float = BUSY_WINDOW_SECONDS) -> float:
    """How many cores other work keeps busy now: measured from /proc/stat
    over `window_seconds` (the load average trails by a minute: a test run
    that just ended would still count), else the 1-minute load average."""
    try:
        first = _cpu_times()
        time.sleep(window_seconds)
        second = _cpu_times()
    except (OSError, ValueError):
        return os.getloadavg()[0]
    total = sum(second) - sum(first)
    idle = (second[3] + second[4]) - (first[3] + first[4])
    return cores * (total - idle) / total if total > 0 else 0.0


def _cpu_times() -> list[int]:
    """The machine's CPU times (user, nice, system, idle, iowait, ...) in ticks."""
    with open("/proc/stat") as stat:
        fields = stat.readline().split()
    if fields[0] != "cpu":
        raise ValueError("no cpu line in /proc/stat")
    return [int(field) for field in fields[1:8]]


def context_tokens() -> int:
    """`PANDORA_LOCAL_CONTEXT`: the server's context in tokens (default 8192)."""
    text = os.environ.get("PANDORA_LOCAL_CONTEXT") or str(DEFAULT_CONTEXT_TOKENS)
    if not text.isdigit() or int(text) < 256:
        raise LocalModelError(f"PANDORA_LOCAL_CONTEXT={text!r} must be a whole number >= 256")
    return int(text)


def ensure_shared_server(progress: Progress | None = None) -> ServerRecord:
    """The running server, started now when there is none. The caller is
    inside `server_use` (the server is marked in use before it is looked
    up, so it cannot stop in between)."""
    with machine_lock():
        server_use.mark()
        record = read_record()
        if record is not None and _alive(record.pid):
            if _answers_within(record.port, HEALTH_WAIT_SECONDS):
                _warn_if_busy()
                return record
            _terminate(record)  # alive but hung: replaced, never doubled
        if record is not None:
            remove_record(record.pid)
        return _start(progress or stderr_progress)


def start_server(progress: Progress | None = None) -> LocalServer:
    """The shared server (found or started), held by this process until the
    returned handle is released or stopped, or the process exits."""
    server_use.enter()
    try:
        record = ensure_shared_server(progress)
    except BaseException:
        server_use.leave()
        raise
    handle = LocalServer(record)
    atexit.register(handle.release)
    return handle


def stop_server(expected: ServerRecord | None = None) -> ServerRecord | None:
    """Stop the running server now (SIGTERM, then SIGKILL after 10 s), or
    the `expected` one (a handle's, wherever its record is); the record of
    the one stopped, None when none ran."""
    with machine_lock():
        record = expected or read_record()
        if record is None:
            return None
        _terminate(record)
        return record


def running_server() -> ServerRecord | None:
    """The running server's record, None when none answers."""
    record = read_record()
    if record is None or not _alive(record.pid) or not answering(record.port):
        return None
    return record


def server_status() -> dict[str, Any] | None:
    """The running server as `pandora model status` shows it: address, pid,
    threads, the clients using it, its idle timer and its last timings."""
    record = running_server()
    if record is None:
        return None
    clients = clients_using()
    last_use = read_last_use()
    idle_seconds = None if clients or last_use is None else max(0.0, time.time() - last_use.at)
    stops_in = None
    if idle_seconds is not None and last_use is not None:
        stops_in = max(0.0, last_use.keep_alive_seconds - idle_seconds)
    return {
        "base_url": record.base_url,
        "pid": record.pid,
        "threads": record.threads,
        "context_tokens": record.context_tokens,
        "started_seconds_ago": round(time.time() - record.started_at, 1),
        "clients": len(clients),
        "idle_seconds": None if idle_seconds is None else round(idle_seconds, 1),
        "stops_in_seconds": None if stops_in is None else round(stops_in, 1),
        "log": record.log_path,
        "last_timings": last_timings(Path(record.log_path)),
    }


TIMING = re.compile(
    r"(?P<phase>prompt eval|eval) time =\s*(?P<ms>[\d.]+) ms /\s*(?P<tokens>\d+) tokens"
    r".*?(?P<rate>[\d.]+) tokens per second"
)


def last_timings(log_path: Path) -> dict[str, float] | None:
    """The last request's timings llama.cpp wrote to the server's log:
    prompt and reply tokens, milliseconds and tokens per second."""
    try:
        text = log_path.read_text(errors="replace")[-200_000:]
    except OSError:
        return None
    timings: dict[str, float] = {}
    for match in TIMING.finditer(text):
        name = "prompt" if match["phase"] == "prompt eval" else "reply"
        if name == "prompt":
            timings = {}
        timings[f"{name}_tokens"] = int(match["tokens"])
        timings[f"{name}_ms"] = float(match["ms"])
        timings[f"{name}_tokens_per_second"] = float(match["rate"])
    return timings or None


def answering(port: int, timeout: float = HEALTH_TIMEOUT_SECONDS) -> bool:
    """Whether a server answers the health check on 127.0.0.1:`port`."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=timeout) as reply:
            return reply.status == 200
    except OSError:
        return False


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


def _start(progress: Progress) -> ServerRecord:
    model = ensure_model_file(progress)
    threads, warning = fitted_threads()
    if warning:
        print(f"pandora: warning: {warning}", file=sys.stderr)
    global _warned_busy
    _warned_busy = True
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    log_path = home / "models" / "server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    record = ServerRecord(
        pid=0,
        port=_free_port(),
        api_key=secrets.token_urlsafe(32),
        model_path=str(model),
        threads=threads,
        context_tokens=context_tokens(),
        keep_alive_seconds=keep_alive_seconds(),
        started_at=0.0,
        log_path=str(log_path),
        home=str(home),
    )
    print(
        f"pandora: starting the local model (Qwen2.5-Coder-1.5B, {threads} thread(s))...",
        file=sys.stderr,
    )
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", CHILD_MODULE],
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    _children[process.pid] = process
    assert process.stdin is not None
    process.stdin.write(record.model_dump_json().encode() + b"\n")
    process.stdin.close()
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while True:
        current = read_record()
        if current is not None and current.pid == process.pid and answering(current.port):
            return current
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise LocalModelError(
                f"the local model server did not start: {_tail(log_path)} (log: {log_path})"
            )
        time.sleep(0.2)


def _answers_within(port: int, seconds: float) -> bool:
    """Whether the server answers its health check within `seconds` (a
    server starved of CPU by a busy machine can be slow to)."""
    deadline = time.monotonic() + seconds
    while True:
        if answering(
            port, timeout=max(0.5, min(HEALTH_TIMEOUT_SECONDS, deadline - time.monotonic()))
        ):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)


def _terminate(record: ServerRecord) -> None:
    """Stop the server of `record` (SIGTERM, then SIGKILL) and remove its record."""
    if _alive(record.pid) and _is_server_process(record.pid):
        os.kill(record.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        while _alive(record.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if _alive(record.pid):
            os.kill(record.pid, signal.SIGKILL)
    remove_record(record.pid)


def _warn_if_busy() -> None:
    global _warned_busy
    if _warned_busy:
        return
    _warned_busy = True
    _, warning = fitted_threads()
    if warning:
        print(f"pandora: warning: {warning}", file=sys.stderr)


def _alive(pid: int) -> bool:
    process = _children.get(pid)
    if process is not None:
        return process.poll() is None
    return pid_alive(pid)


def _is_server_process(pid: int) -> bool:
    """The pid still runs the server (and not a process that reused its number)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return not Path("/proc/self").exists()
    return CHILD_MODULE.encode() in command


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tail(log_path: Path) -> str:
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return "no log"
    lines = [line for line in text.splitlines() if line.strip()]
    return " | ".join(lines[-3:])[-LOG_TAIL_CHARACTERS:] or "no output"
