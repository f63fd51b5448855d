"""One run, in a child forked from a template ahead of its request: shed what
it inherited, lock down, wait for one request, run it, write the result on
the result channel, exit.

The child is forked (and locked down) while the previous run's result is
read, so a request meets a process that is ready. It runs at most one
program: whatever that program patches, sets, starts, allocates or writes in
memory dies with this process; the template that forked it never sees it.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import select
import signal
import socket
import stat
import time
from typing import TYPE_CHECKING, NoReturn

from plugins.executor.messages import receive_message
from plugins.executor.models import RunRequest
from plugins.executor.rlimits import open_descriptors
from plugins.executor.runner import run_program, run_sql

if TYPE_CHECKING:
    from plugins.executor.template import TemplateSession

CRASH_EXIT_CODE = 70
MAX_DESCRIPTOR = 1 << 20
PR_SET_PDEATHSIG = 1
PRIME_AFTER_IDLE_SECONDS = 0.02
"""A spare primes itself only when no request came this soon: calls made
back to back do not pay for priming, calls with pauses between get it free."""

_libc = ctypes.CDLL(None, use_errno=True)


def serve_one_run(session: TemplateSession, channel: socket.socket) -> NoReturn:
    """Lock down, wait on `channel` for one request and its result
    descriptor, run it, and never return."""
    try:
        _die_with_the_template(session.pid)
        highest = _shed_descriptors(session, channel.fileno())
        session.lockdown.apply(session.spec.limits, highest)
        if not _request_within(channel, PRIME_AFTER_IDLE_SECONDS):
            session.prime(lambda: _request_within(channel, 0))
        message, fds = receive_message(channel)
        channel.close()
        started = time.perf_counter()
        request = RunRequest.model_validate(message["run"])
        (result_fd,) = fds
        if session.language == "sql":
            result = run_sql(session.workspace, request, session.spec.limits)
        else:
            namespace = session.namespaces[request.focus]
            result = run_program(
                request.code, namespace, session.spec.limits, session.tripwire, request.max_rows
            )
        result.elapsed_ms = (time.perf_counter() - started) * 1000
        _write_all(result_fd, result.model_dump_json().encode())
        os.close(result_fd)  # the caller sees the end of the result now, not at exit
        os._exit(0)
    except BaseException:  # whatever happened, never return into the template's loop
        os._exit(CRASH_EXIT_CODE)


def _request_within(channel: socket.socket, seconds: float) -> bool:
    return bool(select.select([channel], [], [], seconds)[0])


def _die_with_the_template(template: int) -> None:
    """Be killed if the template dies (a killed template cannot end its runs)."""
    if _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0 or os.getppid() != template:
        os._exit(CRASH_EXIT_CODE)


def _shed_descriptors(session: TemplateSession, channel_fd: int) -> int:
    """Close every inherited descriptor but the channel to the template (it
    brings the request and the result descriptor, then is closed) and the
    Landlock ruleset: the template's control socket above all. A SQL child
    keeps the read-only files and sockets its database connection holds,
    never a file open for writing. Returns the highest descriptor left open."""
    ruleset = [session.lockdown.ruleset] if session.lockdown.ruleset is not None else []
    keep = sorted({channel_fd, *ruleset})
    if session.language != "sql":
        low = 3
        for descriptor in keep:
            os.closerange(low, descriptor)
            low = descriptor + 1
        os.closerange(low, MAX_DESCRIPTOR)
        return keep[-1]
    left = [0, 1, 2, *keep]
    for descriptor in open_descriptors():
        if descriptor in left:
            continue
        if descriptor != session.control_fd and _database_handle(descriptor):
            left.append(descriptor)
            continue
        try:
            os.close(descriptor)
        except OSError:
            continue  # the directory listing's own descriptor, already closed
    return max(left)


def _database_handle(descriptor: int) -> bool:
    """A descriptor a database connection may hold: a file open read-only, or a socket."""
    try:
        status = os.fstat(descriptor)
        flags = fcntl.fcntl(descriptor, fcntl.F_GETFL)
    except OSError:
        return False
    if stat.S_ISSOCK(status.st_mode):
        return True
    return stat.S_ISREG(status.st_mode) and flags & os.O_ACCMODE == os.O_RDONLY


def _write_all(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        view = view[written:]
