"""A fake OpenAI-compatible chat server on 127.0.0.1, for tests.

It plays a script: each incoming `/v1/chat/completions` request takes the
next `Step` (a reply text, an HTTP error status, a delay), or, when the script
is a function, the reply (or step) that function writes for the request's
messages (for runs that ask many questions in an order the test does not
fix). It answers as the real API would (JSON, or server-sent events when the
request streams), and records each request, so a test can read the prompts
sent and count the calls.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[list[dict[str, Any]]], "str | Step"]
"""Writes the reply text (or the whole `Step`) for a request's messages."""


@dataclass
class Step:
    """One scripted answer: `reply` text, or an HTTP `status` error; after
    `delay` seconds. `refuse_response_format` answers 400 to a request that
    asks for `response_format` (a server without structured output);
    `finish_reason` "length" plays a reply cut at the token limit.
    `cached_tokens` adds OpenAI's `usage.prompt_tokens_details.cached_tokens`
    and `timings` llama.cpp's `timings` object (sent as given, so that a test
    can send hostile values); by default the reply has neither.
    `prompt_tokens` replaces the usage's prompt tokens (by default the
    prompt's characters / 4, as `FakeOpenAIServer.prompt_tokens` counts)."""

    reply: str = ""
    status: int = 200
    delay: float = 0.0
    refuse_response_format: bool = False
    finish_reason: str = "stop"
    cached_tokens: Any = None
    timings: dict[str, Any] | None = None
    prompt_tokens: int | None = None


@dataclass
class FakeOpenAIServer:
    """The running server: its `base_url`, the `requests` it received (JSON
    bodies, in order), and the remaining script."""

    script: list[Step] | Responder
    base_url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)
    replied_tokens: list[int] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self, body: dict[str, Any]) -> Step:
        """Record `body` and take the next step (an error when the script is over)."""
        with self._lock:
            self.requests.append(body)
            if callable(self.script):
                written = self.script(body.get("messages", []))
                return written if isinstance(written, Step) else Step(reply=written)
            if not self.script:
                return Step(status=500, reply="script exhausted")
            return self.script.pop(0)

    def prompts(self) -> list[str]:
        """The text of every recorded request's messages, one string per request."""
        return [
            "\n".join(str(message["content"]) for message in body["messages"])
            for body in self.requests
        ]

    def prompt_tokens(self) -> list[int]:
        """The prompt tokens the server reported for each request (characters / 4)."""
        return [_prompt_tokens(body) for body in self.requests]

    def completion_tokens(self) -> list[int]:
        """The completion tokens reported for each answered request."""
        return list(self.replied_tokens)


def _prompt_tokens(body: dict[str, Any]) -> int:
    return sum(len(str(message["content"])) for message in body["messages"]) // 4


def _handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: tests read `requests` instead."""

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(200, {"object": "list", "data": [{"id": "fake-model"}]})
            else:
                self._json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            # the client may give up first (the timeout test)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._answer()

        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            step = server.next_step(body)
            time.sleep(step.delay)
            if step.refuse_response_format and "response_format" in body:
                self._json(400, {"error": {"message": "response_format is not supported"}})
                return
            if step.status != 200:
                self._json(step.status, {"error": {"message": step.reply or "scripted error"}})
                return
            prompt_tokens = (
                _prompt_tokens(body) if step.prompt_tokens is None else step.prompt_tokens
            )
            server.replied_tokens.append(len(step.reply) // 4)
            usage: dict[str, Any] = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(step.reply) // 4,
                "total_tokens": prompt_tokens + len(step.reply) // 4,
            }
            if step.cached_tokens is not None:
                usage["prompt_tokens_details"] = {"cached_tokens": step.cached_tokens}
            extra = {"timings": step.timings} if step.timings is not None else {}
            if body.get("stream"):
                self._stream(step.reply, usage, step.finish_reason, extra)
            else:
                self._json(200, {**_completion(step.reply, usage, step.finish_reason), **extra})

        def _json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(
            self, reply: str, usage: dict[str, Any], finish_reason: str, extra: dict[str, Any]
        ) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            pieces = [reply[i : i + 7] for i in range(0, len(reply), 7)] or [""]
            self._event(_chunk({"role": "assistant", "content": ""}, None))
            for piece in pieces:
                self._event(_chunk({"content": piece}, None))
            self._event(_chunk({}, finish_reason))
            # like llama.cpp, the timings ride on the last event
            self._event({**_chunk({}, None), "choices": [], "usage": usage, **extra})
            self.wfile.write(b"data: [DONE]\n\n")

        def _event(self, payload: dict[str, Any]) -> None:
            self.wfile.write(f"data: {json.dumps(payload)}\n\n".encode())
            self.wfile.flush()

    return Handler


def _completion(reply: str, usage: dict[str, Any], finish_reason: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "fake-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply},
                "finish_reason": finish_reason,
            }
        ],
        "usage": usage,
    }


def _chunk(delta: dict[str, Any], finish_reason: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": "fake-model",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


@contextmanager
def fake_openai_server(script: list[Step] | Responder) -> Iterator[FakeOpenAIServer]:
    """Serve `script` on a free port of 127.0.0.1 for the duration of the block."""
    server = FakeOpenAIServer(script if callable(script) else list(script))
    http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(server))
    server.base_url = f"http://127.0.0.1:{http.server_address[1]}/v1"
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        http.shutdown()
        http.server_close()
