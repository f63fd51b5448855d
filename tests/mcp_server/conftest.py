"""Pandora's MCP server as a real subprocess, and the SDK's own client talking to it.

`connect(transport, ...)` opens a client session over stdio (the client
starts `pandora serve` itself) or over streamable HTTP (a `pandora serve
--transport http` subprocess on a free loopback port).
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import IO, Any

import httpx2
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult

REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLES = REPOSITORY / "examples"
BUNDLED = [EXAMPLES / "music.sqlite", EXAMPLES / "cities.csv", EXAMPLES / "films.ttl"]
START_TIMEOUT_SECONDS = 120.0


def serve_arguments(*extra: str, sources: list[Path] = BUNDLED) -> list[str]:
    """`python -m cli serve --source ... EXTRA...` as a list of arguments."""
    arguments = ["-m", "cli", "serve"]
    for source in sources:
        arguments += ["--source", str(source)]
    return [*arguments, *extra]


def server_environment(**extra: str) -> dict[str, str]:
    """The environment of a server subprocess: this test's PANDORA_HOME, no LLM
    settings of the developer's, plus `extra`."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("OPENAI_", "PANDORA_MODEL", "PANDORA_CONFIG", "PANDORA_MCP"))
    }
    return {**environment, **extra}


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on at `host` right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@contextmanager
def http_server(
    arguments: list[str],
    host: str = "127.0.0.1",
    environment: dict[str, str] | None = None,
    open_file_limit: int | None = None,
) -> Iterator[str]:
    """Run `pandora serve --transport http` with `arguments` until the block ends;
    yields the MCP endpoint URL once the port accepts connections. With
    `open_file_limit`, the server's soft and hard open-file limits are that."""
    port = free_port(host)

    def limit_open_files() -> None:
        if open_file_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_file_limit, open_file_limit))

    # A file, not a pipe: a chatty server must never block on a full pipe.
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                *arguments,
                "--transport",
                "http",
                "--host",
                host,
                "--port",
                str(port),
            ],
            cwd=REPOSITORY,
            env=environment or server_environment(),
            stderr=log,
            text=True,
            preexec_fn=limit_open_files,
        )
        try:
            wait_for_port(process, host, port, log)
            yield f"http://{host}:{port}/mcp"
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_for_port(process: subprocess.Popen[str], host: str, port: int, log: IO[str]) -> None:
    """Return once `host:port` accepts connections; fail with the server's stderr if it died."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise AssertionError(f"the server exited ({process.returncode}): {log.read()}")
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen on {host}:{port} in time")


@asynccontextmanager
async def connect(
    transport: str,
    *extra: str,
    environment: dict[str, str] | None = None,
    **client_options: Any,
) -> AsyncIterator[Client]:
    """A client session with a fresh `pandora serve EXTRA...` over `transport`."""
    arguments = serve_arguments(*extra)
    if transport == "stdio":
        parameters = StdioServerParameters(
            command=sys.executable,
            args=arguments,
            env=environment or server_environment(),
            cwd=str(REPOSITORY),
        )
        async with Client(parameters, read_timeout_seconds=120, **client_options) as client:
            yield client
        return
    with http_server(arguments, environment=environment) as url:
        async with Client(url, read_timeout_seconds=120, **client_options) as client:
            yield client


@asynccontextmanager
async def connect_url(url: str, token: str | None = None, **client_options: Any):
    """A client session with a running HTTP server, sending `token` as a bearer token."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=120, **client_options) as client:
            yield client


def structured(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a successful call (fails with the error text otherwise)."""
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    return result.structured_content


def error_text(result: CallToolResult) -> str:
    """The text of a tool error (fails if the call succeeded)."""
    assert result.is_error, json.dumps(result.structured_content)
    return result.content[0].text
