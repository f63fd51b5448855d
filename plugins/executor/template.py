"""The template process: it loads a workspace once and forks one child per
program; it never runs untrusted code itself.

The child for the next program is forked ahead (a "spare"), and one more for
the program after it: each locks itself down and waits for its one request
on a channel whose other end the template hands to the caller when its turn
comes, so a request goes straight to a ready, locked-down process. Started
by the pool as `python -I` with a minimal environment and no descriptor of
the caller's but its control socket.
Messages on that socket (see `messages.py`):

    caller -> {"spec": WorkerSpec}      template -> {"ready": true, "lockdown": report}
                                        template -> {"spare": {"namespaces", "can_draw"}} + channel
    caller -> {"prepare": focus, "charts": bool}
                                        (the spare lacks that focus' namespace, or
                                        matplotlib for a program that may draw)
                                        template -> [{"refused": error}] {"spare"} + channel
    caller -> {"finish": true, "status": bool}
                                        template -> [{"status": {"exit", "signal"}}] {"spare"}

On its channel the caller sends the spare {"run": RunRequest} and the write
end of a result pipe, then closes the channel; the spare closes its end too
before it runs the program, writes its ExecutionResult as JSON on the pipe
and closes it. The caller reads the pipe to its end (or its deadline, or its
byte limit) and says `finish`: the template kills the child if it still
runs, reaps it when the kernel is done with it, reports how it ended only
when asked (a run that gave no result), and forks the next spare.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor.charts import prepare_charts
from plugins.executor.child import serve_one_run
from plugins.executor.library_doors import close_library_doors
from plugins.executor.lockdown import LockdownReport, prepare_lockdown
from plugins.executor.messages import ChannelClosed, receive_message, send_message
from plugins.executor.models import FocusRef, WorkerSpec
from plugins.executor.module_guard import guard_value
from plugins.executor.policy import ALLOWED_MODULES
from plugins.executor.results import normalise
from plugins.executor.rlimits import open_descriptors
from plugins.executor.runner import run_program
from plugins.executor.tripwire import Tripwire

NAMESPACE_CACHE_SIZE = 8
WARM_UP_PROGRAM = "import math\nprint(1)\nresult = [math.floor(2.5), 'x']"
WARM_UP_RESULTS = (
    *("len(frame)", "frame.v.sum()", "frame.f.mean()", "frame.k.nunique()", "frame.iloc[0, 0]"),
    *("frame.columns.tolist()", "frame.shape[1]", "frame.k.iloc[:2]", "frame.head(2)"),
    *("frame.v.max() - frame.v.min()", "frame.tail(1).v", "frame.dtypes.astype(str).tolist()"),
    *("frame.loc[:1, ['k', 'v']]", "frame[frame.v > 1].v.count()", "frame.k.value_counts()"),
    *("frame.groupby('k').v.sum()", "frame.groupby('k').agg({'v': 'mean'})", "frame.t.dt.year"),
    *("frame.sort_values('f')", "frame.merge(frame, on='k')", "frame.k.str.upper()"),
    *("frame.query('v > 1')", "frame.v.tolist()", "bool(frame.empty)", "frame.nlargest(1, 'v')"),
    *("frame.set_index('k').v", "frame.drop_duplicates('k')", "frame.k.isin(['a'])"),
    *("frame.v.apply(lambda x: x + 1)", "sorted(set(frame.k))", "frame.describe()"),
)
"""The executor's own constant programs, run once in the template (never a
caller's): the first run of a code path writes to its code objects and
caches, which a child would otherwise copy page by page on every run."""


class TemplateSession:
    """The loaded workspace, its namespaces by focus, and the prepared lockdown."""

    def __init__(self, spec: WorkerSpec, control_fd: int):
        self.spec = spec
        self.pid = os.getpid()
        self.control_fd = control_fd
        self.require_complete_lockdown = False
        sources = [load_source(s.location, plugin=s.plugin, name=s.name) for s in spec.sources]
        self.workspace = Workspace.of(sources)
        self.representation = get_registry().representation(spec.representation)
        self.language = self.representation.language
        self.namespaces: dict[FocusRef | None, dict[str, Any]] = {}
        for module in sorted(ALLOWED_MODULES):
            _import_if_present(module)
        self.prepare_namespace(None)
        self.can_draw = self.language == "sql"  # SQL never draws: nothing to prepare
        close_library_doors()
        self.lockdown = prepare_lockdown(_readable_files(sources))
        self.tripwire = Tripwire()
        self._warm_up()

    def _warm_up(self) -> None:
        """Run the executor's own code paths once here, then freeze the heap
        for the garbage collector: a child then writes (and copies) only the
        memory pages its program touches, not every page on a first call."""
        limits = self.spec.limits
        frame = pd.DataFrame({"a": [1], "b": [pd.Timestamp("2020-01-01")]}, index=["x"])
        for value in (frame, frame.a, [1.5, None], "x", 3, np.int64(2), 2.5, None, {"a": 1}, {1}):
            normalise(value, limits)
        run_program(WARM_UP_PROGRAM, {}, limits, self.tripwire, limits.max_rows).model_dump_json()
        namespace = {
            "pd": guard_value(pd, "pd"),
            "frame": pd.DataFrame(
                {
                    "k": ["a", "b", "a"],
                    "v": [1, 2, 3],
                    "f": [0.5, 1.5, 2.5],
                    "t": pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"]),
                }
            ),
        }
        for expression in WARM_UP_RESULTS:
            run_program(f"result = {expression}", namespace, limits, self.tripwire, 100)
        gc.freeze()

    def prime(self, request_waiting: Callable[[], bool]) -> None:
        """In a spare child, until its request arrives: read the BOXes the way
        programs do (trusted code, the child's own memory), so that the pages
        a program touches first are already copied when the request comes.
        Stops as soon as `request_waiting()`: a request never waits for it."""
        frames = [
            value
            for namespace in self.namespaces.values()
            for value in namespace.values()
            if isinstance(value, pd.DataFrame)
        ]
        for step in (step for frame in frames for step in _priming_steps(frame)):
            if request_waiting():
                return
            with contextlib.suppress(Exception):  # priming never fails the child
                normalise(step(), self.spec.limits)

    def prepare_namespace(self, focus: FocusRef | None) -> None:
        """Build (or keep) the namespace programs with `focus` see; the
        template builds it, so that children only read it. SQL has no
        namespace: its tables are copied and connections opened here (over a
        KG, those of the focus), and an empty namespace marks the focus ready."""
        if focus in self.namespaces:
            return
        if len(self.namespaces) >= NAMESPACE_CACHE_SIZE:
            self.namespaces.pop(next(k for k in self.namespaces if k is not None))
        plugin_focus = Focus(**focus.model_dump()) if focus else None
        if self.language == "sql":
            from plugins.sql_schema import run_query

            run_query(self.workspace, "SELECT 1", focus=plugin_focus)
            self.namespaces[focus] = {}
        else:
            raw = self.representation.namespace(self.workspace, plugin_focus)
            self.namespaces[focus] = {name: guard_value(v, name) for name, v in raw.items()}
        gc.freeze()

    def prepare_drawing(self) -> None:
        """Import matplotlib and close its doors, once, when a program first
        may draw (it costs about a second, which other programs never pay)."""
        if not self.can_draw:
            prepare_charts()
            gc.freeze()
            self.can_draw = True

    def fork_spare(self) -> Spare:
        """Fork the child that will run the next request: it locks itself
        down and waits for the request on a channel of its own."""
        caller_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = os.fork()
        if pid == 0:
            caller_end.close()
            serve_one_run(self, child_end)
        child_end.close()
        return Spare(pid, caller_end, frozenset(self.namespaces), self.can_draw)

    def probe_lockdown(self) -> LockdownReport:
        """Fork one child that only applies the lockdown, and read what held."""
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                report = self.lockdown.apply(self.spec.limits, max(open_descriptors()))
                os.write(write_end, report.model_dump_json().encode())
            finally:
                os._exit(0)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as reader:
            data = reader.read()
        os.waitpid(pid, 0)
        if not data:
            return LockdownReport(problems=["the lockdown probe died"])
        return LockdownReport.model_validate_json(data)


@dataclass
class Spare:
    """A child forked ahead, locked down, waiting for its one request on a
    channel whose other end goes to the caller."""

    pid: int
    caller_end: socket.socket
    namespaces: frozenset[FocusRef | None]
    """The namespaces that existed when it was forked: the ones it can serve."""
    can_draw: bool
    """Whether matplotlib was prepared when it was forked (always, for SQL)."""

    def hand_over(self, control: socket.socket) -> None:
        """Send the caller its end of the channel (the template keeps none)."""
        foci = [focus.model_dump(mode="json") if focus else None for focus in self.namespaces]
        described = {"namespaces": foci, "can_draw": self.can_draw}
        send_message(control, {"spare": described}, (self.caller_end.fileno(),))
        self.caller_end.close()


def main() -> None:
    """Entry point: `python -I -c ... <control fd> <project root>`."""
    control = socket.socket(fileno=int(sys.argv[1]))
    _silence_standard_streams()
    try:
        message, _ = receive_message(control)
        spec = WorkerSpec.model_validate(message["spec"])
        session = TemplateSession(spec, control.fileno())
    except Exception as error:  # reported to the caller, which raises it
        send_message(control, {"ready": False, "type": type(error).__name__, "message": str(error)})
        return
    send_message(control, {"ready": True, "lockdown": session.probe_lockdown().model_dump()})
    ended = EndedChildren()
    spare = session.fork_spare()
    spare.hand_over(control)
    ahead = session.fork_spare()
    try:
        while True:
            message, _ = receive_message(control)
            spare, ahead = _answer(session, control, message, (spare, ahead), ended)
    except ChannelClosed:
        ended.end(spare.pid)
        ended.end(ahead.pid)
    finally:
        ended.reap_all()


def _answer(
    session: TemplateSession,
    control: socket.socket,
    message: dict[str, Any],
    spares: tuple[Spare, Spare],
    ended: EndedChildren,
) -> tuple[Spare, Spare]:
    """Serve one message of the caller's. `spares` are the child handed over
    to the caller and the one forked ahead for the run after; returns them
    for the next message.

    `finish`: the run of the handed-over child is over (its result read, or
    abandoned): end it, report how it ended if asked, hand over the child
    forked ahead, fork the next one. `prepare`: build the namespace of a
    focus; both children were forked without it, so both are replaced.
    """
    spare, ahead = spares
    if "prepare" in message:
        focus = FocusRef.model_validate(message["prepare"]) if message["prepare"] else None
        ended.end(spare.pid)
        try:
            session.prepare_namespace(focus)
            if message.get("charts"):
                session.prepare_drawing()
        except Exception as error:  # a focus the representation cannot build: no run
            refused = {"type": type(error).__name__, "message": str(error)}
            send_message(control, {"refused": refused})
        else:
            ended.end(ahead.pid)
            ahead.caller_end.close()
            ahead = session.fork_spare()
    elif message.get("status"):
        send_message(control, {"status": ended.end_now(spare.pid)})
    else:
        ended.end(spare.pid)
    ahead.hand_over(control)
    return ahead, session.fork_spare()


class EndedChildren:
    """Children killed (or exited) whose process is not reaped yet.

    Reaping waits for the kernel to tear a process down, which takes a while
    for a large one: it happens when SIGCHLD says the teardown is over, off
    the caller's path.
    """

    def __init__(self) -> None:
        self.pending: set[int] = set()
        signal.signal(signal.SIGCHLD, self._reap_finished)

    def end(self, pid: int) -> None:
        """Kill `pid` if it still runs; reap it when it is gone."""
        os.kill(pid, signal.SIGKILL)
        self.pending.add(pid)
        self._reap_finished()

    @staticmethod
    def end_now(pid: int) -> dict[str, Any]:
        """Kill `pid` if it still runs (a zombie keeps its status), reap it
        now, and say how it ended."""
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            return {"exit": None, "signal": signal.Signals(os.WTERMSIG(status)).name}
        return {"exit": os.WEXITSTATUS(status), "signal": None}

    def _reap_finished(self, *_: object) -> None:
        for pid in list(self.pending):
            if _reaped(pid, os.WNOHANG):
                self.pending.discard(pid)

    def reap_all(self) -> None:
        """Wait for every pending child (the template is stopping)."""
        for pid in list(self.pending):
            self.pending.discard(pid)
            _reaped(pid, 0)


def _reaped(pid: int, options: int) -> bool:
    """Reap `pid`; True when it is gone (also when the SIGCHLD handler, which
    can run between any two lines, reaped it first)."""
    try:
        return os.waitpid(pid, options)[0] != 0
    except ChildProcessError:
        return True


def _priming_steps(frame: pd.DataFrame) -> Iterator[Callable[[], Any]]:
    """Common reads of a BOX on its first rows: whole-frame ones, then a few
    per column type."""
    yield frame.head
    yield lambda: frame.dtypes.astype(str).tolist()
    seen: set[str] = set()
    for _, column in frame.items():
        if str(column.dtype) not in seen:
            seen.add(str(column.dtype))
            yield lambda column=column: column.iloc[:3]
            yield lambda column=column: column.iloc[:100].value_counts().head(2)


def _readable_files(sources: list[Any]) -> list[str]:
    """The files of the sources: their locations, and a database's file."""
    paths = [source.location for source in sources]
    paths += [source.handle.path for source in sources if getattr(source.handle, "path", None)]
    return [path for path in paths if Path(path).exists()]


def _import_if_present(module: str) -> None:
    """Import now what programs may import later."""
    try:
        importlib.import_module(module)
    except ImportError:
        return


def _silence_standard_streams() -> None:
    """Programs' output is captured in memory; fds 0-2 go to /dev/null, so
    that RLIMIT_FSIZE=0 never meets an inherited log file."""
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    os.close(null)
