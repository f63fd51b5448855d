"""Running the server: stdio (one client, the desktop default) or streamable HTTP.

HTTP is guarded in layers: it binds 127.0.0.1 unless told otherwise, and
refuses to bind anywhere else without a bearer token; every request's Host
and Origin must name this server (the SDK's DNS-rebinding protection); a
request body over `max_body_bytes` is refused (413) before it is parsed;
slow or ambiguous requests are cut off by `mcp_server.http_server`.
"""

from __future__ import annotations

import hmac
import sys
from typing import Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from mcp_server.config import ServerConfig, ServerSettings
from mcp_server.server import build_server
from plugins.errors import BadInputError

Transport = Literal["stdio", "http"]
MCP_PATH = "/mcp"
WILDCARD_HOSTS = ("0.0.0.0", "::")


class BearerTokenGuard:
    """Refuse (401) every HTTP request that does not carry `Authorization: Bearer <token>`."""

    def __init__(self, app: ASGIApp, token: str):
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass an authorised request on; answer any other with 401."""
        if scope["type"] == "http":
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not hmac.compare_digest(given, self.expected):
                response = PlainTextResponse(
                    "a bearer token is required (Authorization: Bearer ...)",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def check_http_binding(settings: ServerSettings) -> None:
    """Refuse to serve HTTP beyond loopback without a token, or on every address
    without the host names clients will use (one-line reasons)."""
    if not settings.loopback and not settings.token:
        raise BadInputError(
            f"--host {settings.host} is reachable from other machines: set a bearer token "
            "(PANDORA_MCP_TOKEN or `token` in [mcp] of pandora.toml), or bind 127.0.0.1"
        )
    if settings.host in WILDCARD_HOSTS and not settings.allowed_hosts:
        raise BadInputError(
            f"--host {settings.host} listens on every address: list the host:port names "
            "clients will use in `allowed_hosts` of [mcp] in pandora.toml"
        )


def transport_security(settings: ServerSettings) -> TransportSecuritySettings:
    """Accept only requests whose Host and Origin name this server (plus any configured)."""
    hosts = (
        ["127.0.0.1", "localhost", "[::1]"] if settings.loopback else [_bracketed(settings.host)]
    )
    addresses = [f"{host}:{settings.port}" for host in hosts]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=addresses + settings.allowed_hosts,
        allowed_origins=[f"http://{address}" for address in addresses] + settings.allowed_origins,
    )


def http_app(server: MCPServer, settings: ServerSettings) -> ASGIApp:
    """The server's streamable HTTP app with Pandora's guards around it."""
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        max_request_body_size=settings.max_body_bytes,
        transport_security=transport_security(settings),
        host=settings.host,
    )
    return BearerTokenGuard(app, settings.token) if settings.token else app


def serve(config: ServerConfig, transport: Transport) -> None:
    """Run the server over `transport` until the client leaves or the process is stopped."""
    server = build_server(config)
    if transport == "stdio":
        anyio.run(server.run_stdio_async)
        return
    settings = config.settings
    check_http_binding(settings)
    anyio.run(_serve_http, server, settings)


async def _serve_http(server: MCPServer, settings: ServerSettings) -> None:
    from mcp_server.http_server import (
        ConnectionLimits,
        connection_ceiling,
        raise_open_file_limit,
        serve_app,
    )

    limits = ConnectionLimits(
        max_connections=connection_ceiling(settings.max_connections, raise_open_file_limit()),
        header_timeout_seconds=settings.header_timeout_seconds,
        allowed_hosts=transport_security(settings).allowed_hosts,
    )
    print(
        f"pandora: MCP over HTTP at http://{_bracketed(settings.host)}:{settings.port}{MCP_PATH}",
        file=sys.stderr,
        flush=True,
    )
    await serve_app(http_app(server, settings), settings.host, settings.port, limits)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host
