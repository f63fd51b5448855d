"""Run as a script: lock this process down as a run's child does, then try
each forbidden operation with plain Python (no AST check, no restricted
builtins) and print what happened as JSON. Used by test_kernel_layers.py,
which copies it beside a `.env` canary and runs it from there."""

from __future__ import annotations

import ctypes
import json
import os
import resource
import socket
import sys

import pyseccomp

from plugins.executor.lockdown import lock_down
from plugins.executor.models import Limits


def attempt(action) -> str:
    """'allowed' or the name of the error the kernel answered with."""
    try:
        action()
    except (OSError, MemoryError, ValueError) as error:
        return type(error).__name__
    return "allowed"


LIBC = ctypes.CDLL(None, use_errno=True)
IPC_PRIVATE = 0
IPC_CREAT = 0o1000
IPC_RMID = 0
IOPRIO_WHO_PROCESS = 1


def checked(result: int) -> int:
    """A libc or syscall result, or the OSError its errno names."""
    if result == -1:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error))
    return result


def create_then_remove(create, remove) -> None:
    """Create a kernel object; if the kernel allowed it, remove it again so
    that a failing run of this probe leaves nothing behind."""
    identifier = checked(create())
    remove(identifier)


def shared_memory() -> None:
    create_then_remove(
        lambda: LIBC.shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600),
        lambda found: LIBC.shmctl(found, IPC_RMID, None),
    )


def message_queue() -> None:
    create_then_remove(
        lambda: LIBC.msgget(IPC_PRIVATE, IPC_CREAT | 0o600),
        lambda found: LIBC.msgctl(found, IPC_RMID, None),
    )


def semaphore() -> None:
    create_then_remove(
        lambda: LIBC.semget(IPC_PRIVATE, 1, IPC_CREAT | 0o600),
        lambda found: LIBC.semctl(found, 0, IPC_RMID),
    )


def posix_message_queue() -> None:
    name = f"/pandora-probe-{os.getpid()}".encode()
    create_then_remove(
        lambda: LIBC.mq_open(name, os.O_RDONLY | os.O_CREAT, 0o600, None),
        lambda found: LIBC.mq_unlink(name),
    )


def renice(pid: int) -> None:
    """Set a process's nice value to what it is (the call itself is the test)."""
    os.setpriority(os.PRIO_PROCESS, pid, os.getpriority(os.PRIO_PROCESS, pid))


def io_priority(pid: int) -> None:
    """Set a process's I/O priority to what it is."""
    arch = pyseccomp.system_arch()
    get, set_ = (pyseccomp.resolve_syscall(arch, name) for name in ("ioprio_get", "ioprio_set"))
    current = checked(LIBC.syscall(get, IOPRIO_WHO_PROCESS, pid))
    checked(LIBC.syscall(set_, IOPRIO_WHO_PROCESS, pid, current))


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
        "sysv_shared_memory": attempt(shared_memory),
        "sysv_message_queue": attempt(message_queue),
        "sysv_semaphore": attempt(semaphore),
        "posix_message_queue": attempt(posix_message_queue),
        "renice_caller": attempt(lambda: renice(os.getppid())),
        "renice_self": attempt(lambda: renice(0)),
        "schedule_caller": attempt(
            lambda: os.sched_setaffinity(os.getppid(), os.sched_getaffinity(os.getppid()))
        ),
        "scheduler_policy": attempt(
            lambda: os.sched_setscheduler(0, os.sched_getscheduler(0), os.sched_param(0))
        ),
        "scheduler_parameters": attempt(lambda: os.sched_setparam(0, os.sched_param(0))),
        "io_priority_caller": attempt(lambda: io_priority(os.getppid())),
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
