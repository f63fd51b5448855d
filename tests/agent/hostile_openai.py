"""A hostile OpenAI-compatible server on 127.0.0.1, for the deadline tests:
it answers every chat request in one bad way (`Behaviour`), and gives up by
itself after `GIVE_UP_SECONDS`, so that a client without a deadline is slow
(the test fails) rather than stuck for ever."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from enum import Enum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

GIVE_UP_SECONDS = 12.0
DRIP_SECONDS = 0.2


class Behaviour(Enum):
    """How the server misbehaves."""

    DRIP_HEADERS = "one byte of headers at a time"
    DRIP_BODY = "one byte of a JSON body at a time"
    ENDLESS_STREAM = "server-sent events with text, slowly, without end"
    FLOOD_STREAM = "server-sent events as fast as possible, without end"
    NOT_JSON = "a 200 whose body is not JSON"
    BAD_USAGE = "a completion whose usage holds no numbers"
    NO_CHOICES = "a completion whose choices is not a list"


def _event(text: str) -> bytes:
    chunk = {
        "id": "x",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "hostile",
        "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}],
    }
    return f"data: {json.dumps(chunk)}\n\n".encode()


def _completion(usage: Any, choices: Any = None) -> bytes:
    message = {"role": "assistant", "content": "```python\nresult = 1\n```"}
    return json.dumps(
        {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": "hostile",
            "choices": choices
            if choices is not None
            else [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": usage,
        }
    ).encode()


def _handler(behaviour: Behaviour, requests: list[float]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet."""

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            requests.append(time.monotonic())
            with contextlib.suppress(OSError):
                self._misbehave()

        def _misbehave(self) -> None:
            until = time.monotonic() + GIVE_UP_SECONDS
            if behaviour is Behaviour.DRIP_HEADERS:
                self._drip(b"HTTP/1.1 200 OK\r\n" + b"X-Slow: " + b"a" * 10_000, until)
            elif behaviour is Behaviour.DRIP_BODY:
                self._head("application/json", length=10_000)
                self._drip(b'{"id": "' + b"a" * 10_000, until)
            elif behaviour in (Behaviour.ENDLESS_STREAM, Behaviour.FLOOD_STREAM):
                self._head("text/event-stream")
                pause = DRIP_SECONDS if behaviour is Behaviour.ENDLESS_STREAM else 0
                text = "x" if pause else "x" * 65_536
                while time.monotonic() < until:
                    self.wfile.write(_event(text))
                    self.wfile.flush()
                    time.sleep(pause)
            elif behaviour is Behaviour.NOT_JSON:
                self._whole(b"<html>surprise</html>")
            elif behaviour is Behaviour.BAD_USAGE:
                self._whole(_completion({"prompt_tokens": "many", "completion_tokens": []}))
            elif behaviour is Behaviour.NO_CHOICES:
                self._whole(_completion({"prompt_tokens": 1}, choices={"no": "list"}))

        def _head(self, content_type: str, length: int | None = None) -> None:
            self.send_response(200)
            self.send_header("Content-Type", content_type)
            if length is not None:
                self.send_header("Content-Length", str(length))
            else:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.flush()

        def _whole(self, body: bytes) -> None:
            self._head("application/json", length=len(body))
            self.wfile.write(body)

        def _drip(self, data: bytes, until: float) -> None:
            for index in range(len(data)):
                if time.monotonic() > until:
                    return
                self.wfile.write(data[index : index + 1])
                self.wfile.flush()
                time.sleep(DRIP_SECONDS)

    return Handler


@contextlib.contextmanager
def hostile_openai_server(behaviour: Behaviour) -> Iterator[tuple[str, list[float]]]:
    """Serve `behaviour`; yields the base URL and the times requests arrived."""
    requests: list[float] = []
    http = ThreadingHTTPServer(("127.0.0.1", 0), _handler(behaviour, requests))
    http.daemon_threads = True
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{http.server_address[1]}/v1", requests
    finally:
        http.shutdown()
        http.server_close()
