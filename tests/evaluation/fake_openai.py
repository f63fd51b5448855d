"""A fake OpenAI-compatible chat server on 127.0.0.1, for tests of the memory builder
and the evaluation runner (no model, no network).

`FakeOpenAI(reply)` serves `/v1/chat/completions` and `/v1/models`; `reply`
gets the request's messages and returns the assistant's text. Every request
is counted and reports fixed token usage (100 prompt, 20 completion).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PROMPT_TOKENS = 100
COMPLETION_TOKENS = 20

Reply = Callable[[list[dict[str, Any]]], str]


class FakeOpenAI:
    """A running fake server; use as a context manager."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.requests: list[list[dict[str, Any]]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *arguments: Any) -> None:
                """Quiet."""

            def do_GET(self) -> None:
                self._send({"object": "list", "data": [{"id": "fake-model", "object": "model"}]})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                messages = body.get("messages", [])
                server.requests.append(messages)
                text = server.reply(messages)
                self._send(
                    {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "fake-model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": text},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": PROMPT_TOKENS,
                            "completion_tokens": COMPLETION_TOKENS,
                            "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS,
                        },
                    }
                )

            def _send(self, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI base URL of the server."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exception: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def last_user_message(messages: list[dict[str, Any]]) -> str:
    """The text of the last user message of a request."""
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def code_reply(code: str, reasoning: str = "scripted") -> str:
    """A reply in the JSON shape the agent's prompt asks for."""
    return json.dumps({"reasoning": reasoning, "code": code})


def question_of(messages: list[dict[str, Any]]) -> str:
    """The question the agent asks: the text after the last `## Question` heading of the
    last user message, up to the next heading."""
    text = last_user_message(messages)
    after = text.rsplit("## Question", 1)[-1]
    return after.split("\n## ", 1)[0].strip()


def mode_of(messages: list[dict[str, Any]]) -> str:
    """What the system prompt asks for: pandas, sql, networkx or direct (no code)."""
    opening = str(messages[0].get("content", ""))[:160] if messages else ""
    for mode, words in (("pandas", "pandas code"), ("sql", "SQL"), ("networkx", "NetworkX")):
        if words in opening:
            return mode
    return "direct"


def direct_reply(answer: str) -> str:
    """A reply of the direct-answer baseline."""
    return json.dumps({"reasoning": "scripted", "answer": answer})
