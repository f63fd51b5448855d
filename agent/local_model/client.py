"""The local model's HTTP client: each request goes to the shared server as
it is now (started again if it stopped after its keep-alive, on whatever
port it has), with its API key, under the request deadline and byte cap of
`agent.llm_deadline`, the server held in use until the reply is read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx

from agent.llm_deadline import DeadlineTransport
from agent.local_model.sharing import server_use

BASE_URL = "http://pandora-local-model/v1"
"""What the chat model is given; every request is sent to the server's real address."""


def local_http_client(request_seconds: float) -> httpx.Client:
    """An httpx client whose requests reach the shared local model server."""
    return httpx.Client(
        transport=LocalServerTransport(request_seconds),
        timeout=request_seconds,
        trust_env=False,
    )


class LocalServerTransport(httpx.BaseTransport):
    """Sends each request to the shared server, found (or started) first."""

    def __init__(self, request_seconds: float):
        inner = httpx.HTTPTransport(limits=httpx.Limits(max_keepalive_connections=0))
        self._deadline = DeadlineTransport(inner, request_seconds)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Address `request` to the server and send it; the server stays in
        use by this process until the reply's body is closed."""
        from agent.local_model.server import ensure_shared_server

        server_use.enter()
        try:
            record = ensure_shared_server()
            request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=record.port)
            request.headers["Host"] = f"127.0.0.1:{record.port}"
            request.headers["Authorization"] = f"Bearer {record.api_key}"
            response = self._deadline.handle_request(request)
        except BaseException:
            server_use.leave()
            raise
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers.raw,
            stream=_LeavingStream(response.stream),
            extensions=response.extensions,
            request=request,
        )

    def close(self) -> None:
        """Close the inner transport."""
        self._deadline.close()


class _LeavingStream(httpx.SyncByteStream):
    """A reply's body; closing it ends this request's use of the server."""

    def __init__(self, inner: Any):
        self._inner = inner
        self._open = True

    def __iter__(self) -> Iterator[bytes]:
        yield from self._inner

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            if self._open:
                self._open = False
                server_use.leave()
