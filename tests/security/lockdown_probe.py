"""Run as a script: lock this process down as a run's child does, then try
each forbidden operation with plain Python (no AST check, no restricted
builtins) and print what happened as JSON. Used by test_kernel_layers.py,
which copies it beside a `.env` canary and runs it from there."""

from __future__ import annotations

import json
import os
import resource
import socket
import sys

from plugins.executor.lockdown import lock_down
from plugins.executor.models import Limits


def attempt(action) -> str:
    """'allowed' or the name of the error the kernel answered with."""
    try:
        action()
    except (OSError, MemoryError, ValueError) as error:
        return type(error).__name__
    return "allowed"


def main() -> None:
    directory, readable_file, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    report = lock_down(Limits(memory_mb=256), [readable_file])

    def fork() -> None:
        if os.fork() == 0:
            os._exit(0)

    outcomes = {
        "fork": attempt(fork),
        "execve": attempt(lambda: os.execv("/bin/true", ["true"])),
        "socket": attempt(lambda: socket.create_connection(("127.0.0.1", port), timeout=1)),
        "open_write": attempt(lambda: os.open(os.path.join(directory, "pwned"), os.O_WRONLY)),
        "open_create_readonly_flags": attempt(
            lambda: os.open(os.path.join(directory, "pwned2"), os.O_CREAT | os.O_RDONLY)
        ),
        "unlink": attempt(lambda: os.unlink(readable_file)),
        "read_outside": attempt(lambda: os.open("/etc/hostname", os.O_RDONLY)),
        "read_source": attempt(lambda: os.open(readable_file, os.O_RDONLY)),
        "read_dotenv_beside_script": attempt(
            lambda: os.open(os.path.join(os.path.dirname(__file__), ".env"), os.O_RDONLY)
        ),
        "list_working_directory": attempt(lambda: os.listdir(os.getcwd())),
        "raise_rlimit": attempt(
            lambda: resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY,) * 2)
        ),
        "memory": attempt(lambda: bytearray(512 * 1024 * 1024)),
        "thread": "allowed" if _thread_works() else "refused",
    }
    print(json.dumps({"report": report.model_dump(), "outcomes": outcomes}))


def _thread_works() -> bool:
    import threading

    box = []
    thread = threading.Thread(target=lambda: box.append(1))
    thread.start()
    thread.join()
    return box == [1]


if __name__ == "__main__":
    main()
