"""The local model's server process: started in the background by the first
client, serving every Pandora process of this user, and stopping itself once
no client has used it for the keep-alive (`agent.local_model.sharing`).

Run by `agent.local_model.server` as `python -m agent.local_model.child`,
its `ServerRecord` (API key included) read as one JSON line from stdin, so
that the key never shows in the process list. The server itself comes from
the module `PANDORA_LOCAL_BACKEND` names (default: llama.cpp through
xllamacpp, `agent.local_model.llama_backend`; the tests name a stand-in):
its `serve(record)` serves on 127.0.0.1:`record.port` while the object it
returns is referenced. SIGTERM (`pandora model stop`) stops it at once.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
import time

from agent.local_model.sharing import (
    LastUse,
    ServerRecord,
    clients_using,
    machine_lock,
    read_last_use,
    read_record,
    record_last_use,
    remove_record,
    write_record,
)

IDLE_CHECK_SECONDS = 1.0
DEFAULT_BACKEND = "agent.local_model.llama_backend"


def serve(record: ServerRecord) -> None:
    """Serve until stopped, replaced, or idle for the keep-alive; then leave."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    backend = importlib.import_module(os.environ.get("PANDORA_LOCAL_BACKEND") or DEFAULT_BACKEND)
    _server = backend.serve(record)  # serves while referenced
    record = record.model_copy(update={"pid": os.getpid(), "started_at": time.time()})
    record_last_use(LastUse(at=time.time(), keep_alive_seconds=record.keep_alive_seconds))
    write_record(record)
    print(f"pandora: serving on 127.0.0.1:{record.port}", flush=True)
    while not stop.wait(IDLE_CHECK_SECONDS):
        if _should_stop(record):
            break
    remove_record(record.pid)
    print("pandora: stopped", flush=True)
    # llama.cpp's own shutdown waits for a running completion to finish,
    # minutes on a busy CPU; nothing is left to save, so leave at once.
    os._exit(0)


def _should_stop(record: ServerRecord) -> bool:
    """Whether the server is no longer the recorded one, or has been idle for the keep-alive."""
    with machine_lock(wait=False) as locked:
        if not locked:
            return False  # a client is starting, finding or stopping the server
        current = read_record()
        if current is None or current.pid != record.pid:
            return True
        if clients_using():
            return False
        last_use = read_last_use()
        if last_use is None:
            return False
        if time.time() - last_use.at < last_use.keep_alive_seconds:
            return False
        remove_record(record.pid)
        print(f"pandora: idle for {last_use.keep_alive_seconds:g} s, stopping", flush=True)
        return True


if __name__ == "__main__":
    serve(ServerRecord.model_validate_json(sys.stdin.readline()))
