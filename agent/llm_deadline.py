"""A deadline for the whole of every LLM request, and a cap on its bytes.

httpx's timeouts bound each read, so a server that sends one byte every
half second, or streams without end, keeps a caller waiting for ever. The
transport here starts a watchdog with each request that shuts the request's
socket down when the request's deadline (or the question's, see
`question_deadline`) has passed, and it stops reading a reply larger than
`MAX_REPLY_BYTES`. Either is raised as an httpx error, so that the OpenAI
client reports it (and retries it) like any other failed request.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import httpx

from agent.llm_progress import CallTracker

MAX_REPLY_BYTES = 4 * 1024 * 1024
"""A reply of 1,024 tokens streamed as server-sent events is about 300 kB."""

_question_deadline: ContextVar[float | None] = ContextVar("question_deadline", default=None)


class LLMDeadlineExceeded(httpx.ReadTimeout):
    """The request (or the question it serves) ran out of time."""


class LLMReplyTooLarge(httpx.ReadError):
    """The server sent more than `MAX_REPLY_BYTES`."""


@contextlib.contextmanager
def question_deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, no LLM request lasts past `seconds` from now (None:
    no bound besides each request's own)."""
    if seconds is None:
        yield
        return
    deadline = time.monotonic() + seconds
    outer = _question_deadline.get()
    token = _question_deadline.set(deadline if outer is None else min(outer, deadline))
    try:
        yield
    finally:
        _question_deadline.reset(token)


def deadline_http_client(base_url: str | None, request_seconds: float) -> httpx.Client:
    """An httpx client whose every request ends within `request_seconds` and
    reads at most `MAX_REPLY_BYTES`, through the proxy the environment names
    for `base_url` (as the OpenAI client's own would)."""
    inner = httpx.HTTPTransport(
        proxy=_environment_proxy(base_url),
        limits=httpx.Limits(max_keepalive_connections=0),
    )
    return httpx.Client(
        transport=DeadlineTransport(inner, request_seconds),
        timeout=request_seconds,
        trust_env=False,
    )


class DeadlineTransport(httpx.BaseTransport):
    """Sends through `inner`, each request bounded in time and reply size.

    Connections are never reused (`deadline_http_client` keeps none alive):
    the watchdog learns the socket of a request when it is connected.
    """

    def __init__(
        self,
        inner: httpx.BaseTransport,
        request_seconds: float,
        max_bytes: int = MAX_REPLY_BYTES,
    ):
        self.inner = inner
        self.request_seconds = request_seconds
        self.max_bytes = max_bytes

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send `request`; the reply's body is read under the same watchdog."""
        deadline = time.monotonic() + self.request_seconds
        question = _question_deadline.get()
        if question is not None:
            deadline = min(deadline, question)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise LLMDeadlineExceeded("the question's time is up", request=request)
        watchdog = _Watchdog(remaining, request.extensions.get("trace"))
        request.extensions = {**request.extensions, "trace": watchdog.trace}
        request.headers["Accept-Encoding"] = "identity"
        tracker = CallTracker()
        tracker.started()
        late = LLMDeadlineExceeded(_late(self.request_seconds), request=request)
        try:
            response = self.inner.handle_request(request)
        except httpx.TransportError as error:
            watchdog.cancel()
            tracker.finished()
            if watchdog.fired:
                raise late from error
            raise
        # A body compressed despite `identity` stays compressed: never inflated unbounded.
        headers = [(k, v) for k, v in response.headers.raw if k.lower() != b"content-encoding"]
        limits = _Limits(watchdog, self.max_bytes, late, tracker)
        return httpx.Response(
            status_code=response.status_code,
            headers=headers,
            stream=_GuardedStream(response.stream, limits),
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        """Close the inner transport."""
        self.inner.close()


class _Watchdog:
    """Shuts down the sockets of one request when its time is up."""

    def __init__(self, seconds: float, outer_trace: Any):
        self.fired = False
        self._outer_trace = outer_trace
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True
        self._timer.start()

    def trace(self, event: str, info: dict[str, Any]) -> None:
        """httpcore's trace hook: remember each socket the request connects."""
        if event.endswith("connect_tcp.complete") and info.get("return_value") is not None:
            connected = info["return_value"].get_extra_info("socket")
            if connected is not None:
                with self._lock:
                    self._sockets.append(connected)
                    if self.fired:
                        _shut(connected)
        if self._outer_trace is not None:
            self._outer_trace(event, info)

    def cancel(self) -> None:
        """The request is over: no shutdown any more."""
        self._timer.cancel()

    def _fire(self) -> None:
        with self._lock:
            self.fired = True
            for connected in self._sockets:
                _shut(connected)


@dataclass
class _Limits:
    """What one reply is read under: its watchdog, its byte cap, the error
    its lateness raises, and the tracker counting its tokens."""

    watchdog: _Watchdog
    max_bytes: int
    late: LLMDeadlineExceeded
    tracker: CallTracker


class _GuardedStream(httpx.SyncByteStream):
    """A reply's body, read while its watchdog has not fired and its size is under the cap."""

    def __init__(self, inner: Any, limits: _Limits):
        self._inner = inner
        self._limits = limits

    def __iter__(self) -> Iterator[bytes]:
        limits = self._limits
        received = 0
        try:
            for chunk in self._inner:
                received += len(chunk)
                if received > limits.max_bytes:
                    raise LLMReplyTooLarge(
                        f"the LLM's reply exceeded {limits.max_bytes:,} bytes",
                        request=limits.late.request,
                    )
                if limits.watchdog.fired:
                    break
                limits.tracker.received(chunk)
                yield chunk
        except httpx.TransportError as error:
            if limits.watchdog.fired and not isinstance(error, LLMReplyTooLarge):
                raise limits.late from error
            raise
        if limits.watchdog.fired:
            raise limits.late

    def close(self) -> None:
        self._limits.watchdog.cancel()
        self._limits.tracker.finished()
        close = getattr(self._inner, "close", None)
        if close is not None:
            close()


def _late(request_seconds: float) -> str:
    return f"the LLM request took longer than its {request_seconds:g} s (or the question's time)"


def _shut(connected: socket.socket) -> None:
    with contextlib.suppress(OSError):
        connected.shutdown(socket.SHUT_RDWR)


def _environment_proxy(base_url: str | None) -> str | None:
    if not base_url:
        return None
    parts = urllib.parse.urlsplit(base_url)
    if parts.hostname is None or urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme)


MALFORMED_REPLY_ERRORS = (
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    AssertionError,
)
"""What reading a reply that is not the OpenAI shape (a body that is no JSON,
a `usage` that holds no numbers, a stream with no completion in it: the
OpenAI client's stream helper asserts) raises in the OpenAI and LangChain
clients."""


def failure_reason(error: BaseException) -> str:
    """One line saying why a request failed: the client's own message
    ("Connection error.") followed by the errors it was raised from (LangChain
    wraps the OpenAI client's error, which wraps the transport's)."""
    messages: list[str] = []
    current: BaseException | None = error
    while current is not None and len(messages) < 5:
        text = " ".join(str(current).split())
        if text and text not in messages:
            messages.append(text)
        current = current.__cause__
    return " ".join(messages)[:300]
