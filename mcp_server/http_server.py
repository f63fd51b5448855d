"""The HTTP server under the MCP app: uvicorn with a guarded protocol.

A client that opens connections and never finishes its request headers
must not hold the server's file descriptors for good, and a server that does
run out of descriptors must come back once they are free again. So:

- the open-file limit is raised to its hard limit at start;
- at most `max_connections` connections are open at once (fewer when the
  open-file limit is low): one beyond them is closed as soon as it is
  accepted, and requests beyond them get uvicorn's 503;
- a connection's request headers must arrive within `header_timeout_seconds`
  of its first byte (or of the connection), else it is closed;
- a request with two Host or two Origin headers, or an absolute-form target
  (`POST http://elsewhere/mcp`) naming a host other than this server, gets 400:
  the DNS-rebinding check reads only the first Host and ignores the target;
- the event loop's exception handler writes one line to stderr without
  importing, opening or allocating anything that can fail when descriptors
  run out (the default one goes through logging and a lazy import).
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
from asyncio import TimerHandle, Transport
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httptools
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

DESCRIPTORS_PER_CONNECTION_SHARE = 2
"""Connections may use at most half of the open-file limit: the rest is for
the executor's workers, the sources and the server itself."""
LOOP_PROBLEM_PREFIX = b"pandora: HTTP server: "


@dataclass(frozen=True)
class ConnectionLimits:
    """What one HTTP connection may hold, and which hosts a request may name."""

    max_connections: int
    header_timeout_seconds: float
    allowed_hosts: Sequence[str]


def raise_open_file_limit() -> int:
    """Raise this process's soft open-file limit to its hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return hard
    return soft


def connection_ceiling(max_connections: int, open_file_limit: int) -> int:
    """`max_connections`, lowered so connections never take more than their
    share of the open-file limit."""
    return max(1, min(max_connections, open_file_limit // DESCRIPTORS_PER_CONNECTION_SHARE))


def report_loop_problem(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: one line on stderr, written with
    `os.write` and nothing that imports or opens a file, and never raising
    (asyncio goes on after it: an accept that failed for lack of descriptors
    is retried a second later)."""
    try:
        problem = context.get("exception") or context.get("message", "unknown problem")
        line = LOOP_PROBLEM_PREFIX + str(problem).encode("utf-8", "replace")[:500] + b"\n"
        os.write(2, line)
    except BaseException:  # reporting must never take the loop down
        pass


def guarded_protocol(limits: ConnectionLimits) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol with the connection limits of this module."""

    class GuardedHttpProtocol(HttpToolsProtocol):
        """One HTTP connection, closed when it exceeds the limits or sends an
        ambiguous request."""

        header_timer: TimerHandle | None = None
        refused = False

        def connection_made(self, transport: Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if len(self.connections) > limits.max_connections:
                transport.abort()
                return
            self._arm_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_header_timer()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm_header_timer()

        def on_headers_complete(self) -> None:
            self._disarm_header_timer()
            problem = request_problem(self.url, self.headers, limits.allowed_hosts)
            if problem is not None:
                self.refused = True
                self.send_400_response(problem)
                return
            super().on_headers_complete()

        def on_body(self, body: bytes) -> None:
            if not self.refused:
                super().on_body(body)

        def on_message_complete(self) -> None:
            if not self.refused:
                super().on_message_complete()

        def _arm_header_timer(self) -> None:
            if self.header_timer is None:
                self.header_timer = self.loop.call_later(
                    limits.header_timeout_seconds, self._headers_too_slow
                )

        def _disarm_header_timer(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _headers_too_slow(self) -> None:
            self.header_timer = None
            if not self.transport.is_closing():
                self.transport.abort()

    return GuardedHttpProtocol


def request_problem(
    target: bytes, headers: Sequence[tuple[bytes, bytes]], allowed_hosts: Sequence[str]
) -> str | None:
    """Why a request's target and headers are refused, or None when they are fine:
    a repeated Host or Origin, or an absolute-form target naming another host."""
    for name in (b"host", b"origin"):
        if sum(1 for header, _ in headers if header == name) > 1:
            return f"more than one {name.decode()} header"
    if target.startswith(b"/") or target == b"*":
        return None
    try:
        parsed = httptools.parse_url(target)
    except httptools.HttpParserInvalidURLError:
        return "invalid request target"
    authority = (parsed.host or b"").decode("latin-1")
    if parsed.port is not None:
        authority += f":{parsed.port}"
    if authority not in allowed_hosts:
        return "the request target names another host"
    return None


async def serve_app(app: Any, host: str, port: int, limits: ConnectionLimits) -> None:
    """Serve the ASGI `app` on host:port until the process is stopped."""
    import rich.traceback  # noqa: F401 - the SDK's log handler imports it lazily, which fails without descriptors

    asyncio.get_running_loop().set_exception_handler(report_loop_problem)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=guarded_protocol(limits),
        limit_concurrency=limits.max_connections,
        log_level="warning",
        server_header=False,
    )
    print(
        f"pandora: at most {limits.max_connections} HTTP connections, request headers "
        f"within {limits.header_timeout_seconds:g} s",
        file=sys.stderr,
        flush=True,
    )
    await uvicorn.Server(config).serve()
