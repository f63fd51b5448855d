"""The client sessions a server has seen: to start loading once the first
handshake is over, and to tell every session when its lists change.

The server answers `initialize` and `tools/list` before it imports the
plugins or loads a source, so that a client sees the tools at once; the
schemas' choices (the representations) and the schema resources arrive
afterwards, announced by `notifications/tools/list_changed` and
`notifications/resources/list_changed` (protocol versions up to 2025-11-25).
"""

from __future__ import annotations

import sys
import weakref
from typing import Any

import anyio

HANDSHAKE_METHODS = ("initialize", "notifications/initialized", "ping")
"""Requests answered before loading starts; `tools/list` too, once answered."""


class SessionWatch:
    """Server middleware: remembers each session, and when the first handshake ended."""

    def __init__(self) -> None:
        self.handshake_over = anyio.Event()
        self._sessions: weakref.WeakSet[Any] = weakref.WeakSet()
        self._changed: set[str] = set()
        """The lists that changed so far (`tools`, `resources`)."""
        self._told: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        """Note the session; any request but the handshake's starts the loading.
        A session first seen after a list changed (its handshake came late on
        a slow machine) is told after its first request."""
        self._sessions.add(ctx.session)
        if ctx.method not in (*HANDSHAKE_METHODS, "tools/list"):
            self.handshake_over.set()
        result = await call_next(ctx)
        if ctx.method == "tools/list":
            self.handshake_over.set()
        if ctx.method not in HANDSHAKE_METHODS:
            await self._tell(ctx.session, self._changed)
        return result

    async def announce_changed_lists(self, tools: bool, resources: bool) -> None:
        """Tell every session seen so far that its tool or resource list changed."""
        changed = {name for name, flag in (("tools", tools), ("resources", resources)) if flag}
        self._changed |= changed
        for session in list(self._sessions):
            await self._tell(session, changed)

    async def _tell(self, session: Any, lists: set[str]) -> None:
        """Send `session` the changes of `lists` it has not been told of."""
        told = self._told.setdefault(session, set())
        try:
            if "tools" in lists and "tools" not in told:
                told.add("tools")
                await session.send_tool_list_changed()
            if "resources" in lists and "resources" not in told:
                told.add("resources")
                await session.send_resource_list_changed()
        except Exception as error:  # a session that left must not stop the others
            self._sessions.discard(session)
            print(f"pandora: a session missed a list change: {error}", file=sys.stderr)
