"""`pandora serve`: Pandora's MCP server, for desktop assistants and IDEs.

Sources come from `pandora.toml` (`--config` or PANDORA_CONFIG) and from
`--source`; stdout belongs to the MCP protocol on stdio, so every message for
a person goes to stderr.
"""

from __future__ import annotations

from pathlib import Path

import click

from cli.output import reports_errors

TRANSPORTS = ("stdio", "http")


@click.command("serve")
@click.option("--config", "config_file", help="pandora.toml (default: $PANDORA_CONFIG).")
@click.option("--source", "sources", multiple=True, help="A source path or URL (repeat).")
@click.option(
    "--transport",
    type=click.Choice(TRANSPORTS),
    default="stdio",
    show_default=True,
    help="stdio for a desktop assistant or IDE; http for streamable HTTP.",
)
@click.option("--host", help="HTTP: address to bind (default 127.0.0.1).")
@click.option("--port", type=click.IntRange(1, 65535), help="HTTP: port (default 8765).")
@reports_errors
def serve_command(
    config_file: str | None,
    sources: tuple[str, ...],
    transport: str,
    host: str | None,
    port: int | None,
) -> None:
    """Serve the sources to MCP clients over stdio (default) or streamable HTTP."""
    from mcp_server.config import (
        SourceEntry,
        check_locations,
        config_path,
        read_config,
        resolve_location,
    )
    from mcp_server.transports import check_http_binding, serve

    config = read_config(config_path(config_file))
    config.sources += [SourceEntry(location=resolve_location(spec, Path.cwd())) for spec in sources]
    overrides = {key: value for key, value in {"host": host, "port": port}.items() if value}
    config.settings = config.settings.model_copy(update=overrides)
    check_locations(config.sources)  # a missing file: exit 2 before serving
    if transport == "http":
        check_http_binding(config.settings)
    serve(config, transport)
