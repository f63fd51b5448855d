"""`pandora.toml` for the MCP server: which sources to serve and how.

```toml
[[sources]]
location = "examples/music.sqlite"   # a path (relative to this file) or a URL
name = "music"                       # optional: the file stem by default
plugin = "databases"                 # optional: the loader, chosen by extension otherwise

[mcp]
host = "127.0.0.1"                   # HTTP only; beyond loopback a token is required
port = 8765
token = "..."                        # or PANDORA_MCP_TOKEN (the environment wins)
```

Other top-level tables belong to other parts of Pandora and are ignored
here; unknown keys inside `[mcp]` or a source are refused, so a typo never
silently falls back to a default. docs/mcp.md documents every setting.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from plugins.errors import BadInputError
from plugins.sources import url_scheme

CONFIG_VARIABLE = "PANDORA_CONFIG"
TOKEN_VARIABLE = "PANDORA_MCP_TOKEN"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


class SourceEntry(BaseModel):
    """One source to serve: where it is, and optionally its name and loader."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    location: str = Field(min_length=1)
    name: str | None = None
    plugin: str | None = None


class ServerSettings(BaseModel):
    """How the server answers: HTTP binding and guards, caps on what one call returns."""

    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=1, le=65535)
    token: str | None = Field(default=None, min_length=16)
    allowed_hosts: list[str] = Field(default_factory=list)
    allowed_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1_000_000, ge=1024)
    max_connections: int = Field(default=256, ge=1)
    header_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    max_concurrent_runs: int = Field(default=4, ge=1)
    busy_wait_seconds: float = Field(default=30.0, ge=0)
    timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    sampling_timeout_seconds: float = Field(default=120.0, gt=0, le=3600)
    max_rows: int = Field(default=100, ge=1, le=10_000)
    max_chars: int = Field(default=20_000, ge=1_000)
    ask_llm: Literal["auto", "client"] = "auto"
    """Who answers `ask`: `auto` = the server's LLM, else the client's (sampling);
    `client` = always the client's model, through sampling."""

    @property
    def loopback(self) -> bool:
        """Whether HTTP is bound to this machine's own loopback address only."""
        return self.host in LOOPBACK_HOSTS


class ServerConfig(BaseModel):
    """The sources to load and the server's settings."""

    model_config = ConfigDict(extra="forbid")

    sources: list[SourceEntry] = Field(default_factory=list)
    settings: ServerSettings = Field(default_factory=ServerSettings)


def config_path(option: str | None) -> Path | None:
    """The configuration file named by `--config`, else by PANDORA_CONFIG, else none."""
    value = option or os.environ.get(CONFIG_VARIABLE)
    return Path(value).expanduser() if value else None


def read_config(path: Path | None) -> ServerConfig:
    """The configuration in `path` (an empty one when None), relative source paths
    resolved against the file's folder; PANDORA_MCP_TOKEN overrides the token."""
    config = ServerConfig() if path is None else _parse(path)
    token = os.environ.get(TOKEN_VARIABLE)
    if token:
        config.settings = _validated_settings({**config.settings.model_dump(), "token": token})
    return config


def _parse(path: Path) -> ServerConfig:
    if not path.is_file():
        raise BadInputError(f"{path}: no such configuration file")
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadInputError(f"{path}: not valid TOML: {error}") from error
    try:
        sources = [SourceEntry.model_validate(entry) for entry in document.get("sources", [])]
        settings = ServerSettings.model_validate(document.get("mcp", {}))
    except (ValidationError, TypeError) as error:
        raise BadInputError(f"{path}: {_first_problem(error)}") from error
    base = path.resolve().parent
    resolved = [
        entry.model_copy(update={"location": resolve_location(entry.location, base)})
        for entry in sources
    ]
    return ServerConfig(sources=resolved, settings=settings)


def _validated_settings(values: dict[str, object]) -> ServerSettings:
    try:
        return ServerSettings.model_validate(values)
    except ValidationError as error:
        raise BadInputError(_first_problem(error)) from error


def check_locations(sources: list[SourceEntry]) -> None:
    """Refuse a source file that is missing, or a folder, before the server starts.
    Only that: choosing a loader imports the plugins, which the server does after
    its handshake (a format no plugin reads is then listed as a failed source)."""
    for entry in sources:
        if url_scheme(entry.location):
            continue
        path = Path(entry.location)
        if not path.exists():
            raise BadInputError(f"{entry.location}: no such file or directory")
        if path.is_dir():
            raise BadInputError(f"{entry.location}: is a directory; name a file or a database URL")


def resolve_location(location: str, base: Path) -> str:
    """A URL as it is; a relative path made absolute against `base`."""
    if url_scheme(location):
        return location
    path = Path(location).expanduser()
    return str(path if path.is_absolute() else (base / path).resolve())


def _first_problem(error: ValidationError | TypeError) -> str:
    if isinstance(error, TypeError):
        return "[[sources]] must be a list of tables with a `location`"
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"]) or "value"
    return f"{where}: {problem['msg']}"
