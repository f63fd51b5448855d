"""Pandora's MCP server: its sources, the sandboxed executor, the memory and
the agent as tools, resources and a prompt for desktop assistants and IDEs.

`build_server(config)` makes the server; `mcp_server.transports.serve` runs it
over stdio or streamable HTTP (what `pandora serve` does). See docs/mcp.md.
"""

from mcp_server.config import ServerConfig, ServerSettings, SourceEntry, read_config
from mcp_server.server import build_server

__all__ = ["ServerConfig", "ServerSettings", "SourceEntry", "build_server", "read_config"]
