"""Attacks on the real `pandora serve --transport http` on 127.0.0.1: slow
clients that never finish their headers, and requests whose Host, Origin or
target are ambiguous. Every loop here is bounded and every server stops."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.mcp_server.conftest import EXAMPLES, http_server, serve_arguments
from tests.mcp_server.test_http_guards import HEADERS, INITIALIZE

pytestmark = pytest.mark.slow

OPEN_FILE_LIMIT = 1024
SLOW_CLIENTS = 1100
HEADER_TIMEOUT_SECONDS = 1.0


@pytest.fixture
def guarded_config(tmp_path: Path) -> Path:
    """A pandora.toml with a short header timeout, so the attack ends quickly."""
    config = tmp_path / "pandora.toml"
    config.write_text(f"[mcp]\nheader_timeout_seconds = {HEADER_TIMEOUT_SECONDS}\n")
    return config


@contextmanager
def half_sent_requests(address: tuple[str, int], count: int) -> Iterator[int]:
    """Open up to `count` connections, each sending the start of a request and
    never its end; yields how many were opened, closes them all at the end."""
    with ExitStack() as stack:
        opened = 0
        for _ in range(count):
            try:
                connection = stack.enter_context(socket.create_connection(address, timeout=2))
                connection.sendall(
                    b"POST /mcp HTTP/1.1\r\nHost: %s:%d\r\n" % (address[0].encode(), address[1])
                )
            except OSError:
                break
            opened += 1
        yield opened


def initialize_status(url: str) -> int:
    """The status of a well-formed initialize request."""
    return httpx.post(url, content=INITIALIZE, headers=HEADERS, timeout=15).status_code


def test_slow_clients_do_not_wedge_the_server(guarded_config: Path) -> None:
    arguments = serve_arguments(
        "--config", str(guarded_config), sources=[EXAMPLES / "music.sqlite"]
    )
    with http_server(arguments, open_file_limit=OPEN_FILE_LIMIT) as url:
        address = urlsplit(url)
        with half_sent_requests((address.hostname, address.port), SLOW_CLIENTS) as opened:
            assert opened == SLOW_CLIENTS
            time.sleep(HEADER_TIMEOUT_SECONDS * 3)  # their headers are overdue: they are cut off
            assert initialize_status(url) == 200  # while the attacker still holds its sockets
        assert initialize_status(url) == 200  # and after it left


def raw_status(url: str, request: bytes) -> int:
    """Send `request` as it is on a fresh connection; the response's status code."""
    address = urlsplit(url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as connection:
        connection.sendall(request)
        status_line = connection.makefile("rb").readline()
    return int(status_line.split()[1])


def request_bytes(target: str, *header_lines: str) -> bytes:
    """An initialize POST to `target` with `header_lines` and a proper body."""
    body = INITIALIZE.encode()
    headers = [
        *header_lines,
        "Content-Type: application/json",
        "Accept: application/json, text/event-stream",
        f"Content-Length: {len(body)}",
    ]
    return (
        f"POST {target} HTTP/1.1\r\n".encode()
        + "".join(f"{h}\r\n" for h in headers).encode()
        + b"\r\n"
        + body
    )


def test_ambiguous_host_origin_and_target_are_refused() -> None:
    with http_server(serve_arguments(sources=[EXAMPLES / "music.sqlite"])) as url:
        ours = urlsplit(url).netloc
        assert raw_status(url, request_bytes("/mcp", f"Host: {ours}")) == 200
        duplicate_host = request_bytes("/mcp", f"Host: {ours}", "Host: attacker.example")
        assert raw_status(url, duplicate_host) == 400
        duplicate_origin = request_bytes(
            "/mcp", f"Host: {ours}", f"Origin: http://{ours}", "Origin: http://attacker.example"
        )
        assert raw_status(url, duplicate_origin) == 400
        foreign_target = request_bytes("http://attacker.example/mcp", f"Host: {ours}")
        assert raw_status(url, foreign_target) == 400
        own_target = request_bytes(f"http://{ours}/mcp", f"Host: {ours}")
        assert raw_status(url, own_target) == 200
