"""One `ask` call's agent: it runs in a worker thread, and every way it has
back to the event loop (progress, a sampling request, an execution slot)
goes through its `AgentRun`.

Two rules keep one client from blocking the others:

- an execution slot is held only while one of the agent's programs runs,
  never while the agent waits for an LLM or for the client's sampling reply;
- when the call ends before the agent (its client left, or the request was
  cancelled), the agent is told to stop: whatever it awaits on the loop is
  cancelled, and its next event, sampling request or program raises
  `AgentStopped`, which ends it.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import anyio
import anyio.from_thread
import anyio.to_thread
from anyio.lowlevel import current_token

from mcp_server.state import ExecutionGate
from plugins.errors import PandoraError

Returned = TypeVar("Returned")
STOPPED = "the ask call ended: its client left or cancelled it"


class AgentStopped(PandoraError):
    """The call that ran the agent ended first: the agent stops where it is."""


class AgentRun:
    """The bridge between one agent thread and the event loop of its call."""

    def __init__(self, gate: ExecutionGate):
        """Create on the event loop, inside the tool call."""
        self.gate = gate
        self.loop_token = current_token()
        self._stopped = threading.Event()
        self._waits: set[anyio.CancelScope] = set()

    async def run(self, agent: Callable[[], Returned]) -> Returned:
        """Run `agent` in a worker thread, each of its programs inside an
        execution slot; when this call is cancelled, stop the agent and return
        at once rather than waiting for the thread."""
        try:
            return await anyio.to_thread.run_sync(self._admitted, agent, abandon_on_cancel=True)
        finally:
            self.stop()

    def stop(self) -> None:
        """Tell the agent to stop (from the event loop)."""
        self._stopped.set()
        for wait in list(self._waits):
            wait.cancel()

    def call_on_loop(
        self, function: Callable[..., Awaitable[Returned]], *arguments: object
    ) -> Returned:
        """From the agent's thread: await `function(*arguments)` on the event
        loop; `AgentStopped` when the call has ended or ends meanwhile."""
        if self._stopped.is_set():
            raise AgentStopped(STOPPED)
        return anyio.from_thread.run(
            self._unless_stopped, function, *arguments, token=self.loop_token
        )

    @contextmanager
    def execution_slot(self) -> Iterator[None]:
        """From the agent's thread: hold one of the server's execution slots."""
        self.call_on_loop(self.gate.acquire)
        try:
            yield
        finally:
            anyio.from_thread.run_sync(self.gate.release, token=self.loop_token)

    def _admitted(self, agent: Callable[[], Returned]) -> Returned:
        from plugins.executor.api import admitted_by

        with admitted_by(self.execution_slot):
            return agent()

    async def _unless_stopped(
        self, function: Callable[..., Awaitable[Returned]], *arguments: object
    ) -> Returned:
        with anyio.CancelScope() as scope:
            self._waits.add(scope)
            try:
                if not self._stopped.is_set():
                    return await function(*arguments)
            finally:
                self._waits.discard(scope)
        raise AgentStopped(STOPPED)
