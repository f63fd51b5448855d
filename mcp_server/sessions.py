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

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        """Note the session; any request but the handshake's starts the loading."""
        self._sessions.add(ctx.session)
        if ctx.method not in (*HANDSHAKE_METHODS, "tools/list"):
            self.handshake_over.set()
        result = await call_next(ctx)
        if ctx.method == "tools/list":
            self.handshake_over.set()
        return result

    async def announce_changed_lists(self, tools: bool, resources: bool) -> None:
        """Tell every session seen so far that its tool or resource list changed."""
        for session in list(self._sessions):
            try:
                if tools:
                    await session.send_tool_list_changed()
                if resources:
                    await session.send_resource_list_changed()
            except Exception as error:  # a session that left must not stop the others
                self._sessions.discard(session)
                print(f"pandora: a session missed a list change: {error}", file=sys.stderr)
