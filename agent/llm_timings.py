"""llama.cpp's `timings` of an LLM reply: how much of the prompt it computed.

llama.cpp's server adds a `timings` object to a chat completion (to its last
server-sent event when it streams): `cache_n` prompt tokens taken from its
prompt cache, `prompt_n` prompt tokens computed, `predicted_n` tokens
generated, and the milliseconds of each. The OpenAI and LangChain clients
drop fields they do not know, so the deadline transport's `CallTracker`
(`agent.llm_progress`) reads them off the reply's bytes and gives them to the
`TimingsRecord` that `recording_timings` opened in the request's context
(none by default: then nothing is read). A server is not trusted: a value
that is not a finite number from 0 to `MAX_COUNT` is left out.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from contextvars import ContextVar

from pydantic import BaseModel

MAX_COUNT = 10**9
"""Larger than any prompt, reply or duration in milliseconds a request has."""


class ServerTimings(BaseModel):
    """The timings of one reply; None where the server sent no usable value."""

    cache_n: int | None = None
    prompt_n: int | None = None
    predicted_n: int | None = None
    prompt_ms: float | None = None
    predicted_ms: float | None = None

    @classmethod
    def from_reply(cls, timings: object) -> ServerTimings | None:
        """The usable values of a reply's `timings` object (None when it is no object)."""
        if not isinstance(timings, dict):
            return None
        return cls(
            cache_n=_whole(count(timings.get("cache_n"))),
            prompt_n=_whole(count(timings.get("prompt_n"))),
            predicted_n=_whole(count(timings.get("predicted_n"))),
            prompt_ms=count(timings.get("prompt_ms")),
            predicted_ms=count(timings.get("predicted_ms")),
        )


def count(value: object) -> float | None:
    """`value` if it is a finite number from 0 to `MAX_COUNT`, else None: what
    a server says it counted, checked before it is added to anything."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value) or not 0 <= value <= MAX_COUNT:
        return None
    return value


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value)


class TimingsRecord:
    """The timings of the last reply received while the record was open
    (several replies when the client retried: the last one is the answer)."""

    def __init__(self) -> None:
        self.last: ServerTimings | None = None

    def read(self, reply: object) -> None:
        """Keep the `timings` of a reply (a completion or a streamed event), if it has them."""
        if isinstance(reply, dict) and "timings" in reply:
            timings = ServerTimings.from_reply(reply["timings"])
            if timings is not None:
                self.last = timings


_record: ContextVar[TimingsRecord | None] = ContextVar("llm_timings_record", default=None)


@contextlib.contextmanager
def recording_timings() -> Iterator[TimingsRecord]:
    """Within the block, the replies of LLM requests made through the deadline
    transport in this context (the same thread: the chat clients are called
    synchronously) give their timings to the record yielded."""
    record = TimingsRecord()
    token = _record.set(record)
    try:
        yield record
    finally:
        _record.reset(token)


def current_timings_record() -> TimingsRecord | None:
    """The record open in this context, if any."""
    return _record.get()
