"""A stand-in for llama.cpp behind the local model's shared server, for the
lifecycle tests: `PANDORA_LOCAL_BACKEND=tests.agent.local_standin` makes the
real server process (`agent.local_model.child`) serve the fake OpenAI server
of tests/fake_openai.py instead of the model, on the port and with the API
key the real server would get. It answers every question with
`PANDORA_TEST_STANDIN_REPLY` (default: a program counting albums) after
`PANDORA_TEST_STANDIN_DELAY` seconds, refuses requests without the key (401),
and appends its pid to `PANDORA_TEST_STANDIN_STARTS` when it starts."""

from __future__ import annotations

import os
import threading
import time
from http.server import ThreadingHTTPServer
from typing import Any

from agent.local_model.sharing import ServerRecord
from tests.fake_openai import FakeOpenAIServer, _handler

COUNT_ALBUMS = "```sql\nSELECT COUNT(*) FROM album\n```\n```python\nresult = len(album)\n```"
"""One reply for either route the local model's defaults take (SQL or pandas)."""


def serve(record: ServerRecord) -> Any:
    """Serve on 127.0.0.1:`record.port` in a background thread."""
    reply = os.environ.get("PANDORA_TEST_STANDIN_REPLY") or COUNT_ALBUMS
    delay = float(os.environ.get("PANDORA_TEST_STANDIN_DELAY") or 0)
    fake = FakeOpenAIServer(lambda messages: reply)
    base = _handler(fake)

    class KeyedHandler(base):  # type: ignore[misc, valid-type]
        def do_GET(self) -> None:
            if self.path == "/health":
                self._json(200, {"status": "ok"})
            elif self._authorized():
                super().do_GET()

        def do_POST(self) -> None:
            if self._authorized():
                time.sleep(delay)
                super().do_POST()
                print("standin: answered a request", flush=True)

        def _authorized(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {record.api_key}":
                return True
            self._json(401, {"error": {"message": "Invalid API Key"}})
            return False

    http = ThreadingHTTPServer(("127.0.0.1", record.port), KeyedHandler)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    starts = os.environ.get("PANDORA_TEST_STANDIN_STARTS")
    if starts:
        with open(starts, "a") as output:
            output.write(f"{os.getpid()}\n")
    return http
