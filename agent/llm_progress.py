"""What an LLM request is doing while it runs, for a live line on stderr.

The deadline transport (`agent.llm_deadline`) makes one `CallTracker` per
request; it counts the reply's tokens as they arrive (one server-sent event
with text is one token for llama.cpp and OpenAI) or, for a reply sent whole,
reads them from its `usage` at the end, and tells the `CallReporter` set by
`reporting_calls` (none by default). It also hands the reply's llama.cpp
`timings` to the record `agent.llm_timings.recording_timings` opened, if any.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any, Protocol

from agent.llm_timings import current_timings_record


class CallReporter(Protocol):
    """Told when an LLM request starts, when its reply has more tokens, and
    when it ends (several requests may run at once, each its own tracker)."""

    def call_started(self, call: CallTracker) -> None:
        """`call` was sent."""

    def call_progress(self, call: CallTracker) -> None:
        """`call.tokens` grew."""

    def call_finished(self, call: CallTracker) -> None:
        """`call` ended, answered or failed, with `call.tokens` reply tokens."""


_reporter: ContextVar[CallReporter | None] = ContextVar("llm_call_reporter", default=None)


@contextlib.contextmanager
def reporting_calls(reporter: CallReporter) -> Iterator[None]:
    """Within the block, every LLM request made through the deadline
    transport (in this context or one copied from it) tells `reporter`."""
    token = _reporter.set(reporter)
    try:
        yield
    finally:
        _reporter.reset(token)


class CallTracker:
    """One request's progress, told to the reporter of the context it was
    made in, and its timings, given to the record open there."""

    def __init__(self) -> None:
        self._reporter = _reporter.get()
        self._timings = current_timings_record()
        self._pending = b""
        self._whole = bytearray()
        self._streamed = False
        self._finished = False
        self.tokens = 0
        self.started_at = time.monotonic()

    def started(self) -> None:
        """The request is sent."""
        self.started_at = time.monotonic()
        if self._reporter is not None:
            self._reporter.call_started(self)

    def received(self, chunk: bytes) -> None:
        """Count the tokens of a piece of the reply and read its timings."""
        if self._reporter is None and self._timings is None:
            return
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        before = self.tokens
        for line in lines:
            if line.startswith(b"data:"):
                self._streamed = True
                event = _parsed(line[5:])
                self.tokens += _has_text(event)
                if self._timings is not None:
                    self._timings.read(event)
        if not self._streamed:
            self._whole += b"\n".join(lines) + b"\n"
        if self.tokens != before and self._reporter is not None:
            self._reporter.call_progress(self)

    def finished(self) -> None:
        """The request ended; a reply sent whole has its token count in
        `usage` and its timings beside it."""
        if self._finished or (self._reporter is None and self._timings is None):
            return
        self._finished = True
        if not self._streamed:
            reply = _parsed(bytes(self._whole) + self._pending)
            self.tokens = _usage_tokens(reply)
            if self._timings is not None:
                self._timings.read(reply)
        if self._reporter is not None:
            self._reporter.call_finished(self)


def _parsed(data: bytes) -> Any:
    """A reply or event as JSON; None when it is not JSON (`[DONE]`, a cut body)."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _has_text(event: Any) -> int:
    try:
        choices = event.get("choices") or []
        return int(bool(choices and (choices[0].get("delta") or {}).get("content")))
    except (AttributeError, TypeError, IndexError, KeyError):
        return 0


def _usage_tokens(reply: Any) -> int:
    try:
        return int(reply["usage"]["completion_tokens"])
    except (ValueError, KeyError, TypeError):
        return 0
