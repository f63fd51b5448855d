"""`load_source`: from a path or URL to a loaded `Source`, through the loaders."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from plugins.errors import BadInputError

if TYPE_CHECKING:  # `url_scheme` alone (the MCP server's start) must not import pandas
    from plugins.model import Source
    from plugins.protocols import Loader


def load_source(spec: str, plugin: str | None = None, name: str | None = None) -> Source:
    """Open the source named by `spec` (a path or URL), read-only.

    The loader is chosen by the URL scheme or the file extension; `plugin`
    names a loader explicitly (the CLI's `--plugin`), `name` overrides the
    source name (a file's stem by default).
    """
    from plugins.registry import get_registry

    registry = get_registry()
    loader = registry.loader(plugin) if plugin else choose_loader(spec, registry.loaders)
    return loader.load(spec, name)


def choose_loader(spec: str, loaders: list[Loader]) -> Loader:
    """The first loader claiming the scheme of a URL or the extension of a path."""
    scheme = url_scheme(spec)
    if scheme:
        for loader in loaders:
            if scheme in loader.schemes:
                return loader
        known = sorted({s for loader in loaders for s in loader.schemes})
        raise BadInputError(
            f"{spec}: no plugin reads URLs of scheme {scheme!r}; known schemes: {', '.join(known)}"
        )
    path = Path(spec)
    if not path.exists():
        raise BadInputError(f"{spec}: no such file or directory")
    if path.is_dir():
        raise BadInputError(f"{spec}: is a directory; name a file or a database URL")
    extension = path.suffix.lower()
    for loader in loaders:
        if extension in loader.extensions:
            return loader
    known = sorted({e for loader in loaders for e in loader.extensions})
    raise BadInputError(
        f"{spec}: unknown file extension {extension or '(none)'!r}; "
        f"known: {' '.join(known)} (or choose a loader with --plugin)"
    )


def url_scheme(spec: str) -> str | None:
    """The scheme of `spec` if it is a URL (`postgresql+psycopg://...`), else None."""
    if "://" not in spec:
        return None
    scheme = urlsplit(spec).scheme.lower()
    return scheme or None
