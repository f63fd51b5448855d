"""The HTTP transport's guards against the real `pandora serve --transport http`:
a bearer token beyond loopback, Host and Origin validation, a body size limit.

"Beyond loopback" is stood in for by 127.0.0.2: an address other than
127.0.0.1 that still never leaves this machine.
"""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import httpx
import pytest

from tests.mcp_server.conftest import (
    connect_url,
    http_server,
    serve_arguments,
    server_environment,
)

TOKEN = "a-long-enough-test-token-0123456789"
INITIALIZE = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "guard-test", "version": "1"},
        },
    }
)
HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


def test_binding_beyond_loopback_without_a_token_refuses_to_start(pandora) -> None:
    run = pandora("serve", "--transport", "http", "--host", "127.0.0.2", "--port", "18766")
    assert run.exit_code == 2
    assert "token" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_beyond_loopback_a_request_without_the_token_is_refused() -> None:
    environment = server_environment(PANDORA_MCP_TOKEN=TOKEN)
    with http_server(serve_arguments(), host="127.0.0.2", environment=environment) as url:
        missing = httpx.post(url, content=INITIALIZE, headers=HEADERS)
        wrong = httpx.post(
            url, content=INITIALIZE, headers={**HEADERS, "authorization": f"Bearer {TOKEN}x"}
        )
        assert (missing.status_code, wrong.status_code) == (401, 401)
        assert missing.headers["www-authenticate"] == "Bearer"

        async def with_token() -> set[str]:
            async with connect_url(url, token=TOKEN) as client:
                return {tool.name for tool in (await client.list_tools()).tools}

        assert "run_pandas" in anyio.run(with_token)


@pytest.mark.slow
def test_foreign_host_foreign_origin_and_big_bodies_are_refused(tmp_path: Path) -> None:
    config = tmp_path / "pandora.toml"
    config.write_text("[mcp]\nmax_body_bytes = 4096\n", encoding="utf-8")
    with http_server(serve_arguments("--config", str(config))) as url:
        welcome = httpx.post(url, content=INITIALIZE, headers=HEADERS)
        assert welcome.status_code == 200

        foreign_host = httpx.post(
            url, content=INITIALIZE, headers={**HEADERS, "host": "attacker.example:80"}
        )
        assert foreign_host.status_code == 421

        foreign_origin = httpx.post(
            url, content=INITIALIZE, headers={**HEADERS, "origin": "http://attacker.example"}
        )
        assert foreign_origin.status_code == 403

        padded = json.loads(INITIALIZE)
        padded["params"]["clientInfo"]["name"] = "x" * 5000
        too_big = httpx.post(url, content=json.dumps(padded), headers=HEADERS)
        assert too_big.status_code == 413
