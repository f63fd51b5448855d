"""The sources a server serves: loaded once, in the background, then shared by every call.

Loading starts when the server starts and does not hold up the handshake or
`tools/list`; a call that needs a source waits until loading is over and,
when its client asked for progress, hears which source is loading meanwhile.
A source that fails to load is reported (by `list_sources`, and by every call
naming it) instead of stopping the server.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from mcp_server.config import SourceEntry
from plugins.errors import BadInputError, PandoraError

if TYPE_CHECKING:
    from plugins import Source, Workspace

ProgressReporter = Callable[[float, float, str], Awaitable[None]]
PROGRESS_INTERVAL_SECONDS = 0.25


@dataclass
class CatalogEntry:
    """One configured source: loaded (`source`), failed (`error`) or still loading."""

    entry: SourceEntry
    source: Source | None = None
    error: str | None = None

    @property
    def name(self) -> str:
        """The source's name, or what the configuration calls it while it loads."""
        if self.source is not None:
            return self.source.name
        return self.entry.name or self.entry.location

    @property
    def status(self) -> str:
        """`loading`, `ready` or `failed`."""
        if self.source is not None:
            return "ready"
        return "failed" if self.error is not None else "loading"


class SourceCatalog:
    """The configured sources, their loading progress, and workspaces over them."""

    def __init__(self, entries: Sequence[SourceEntry]):
        self.entries = [CatalogEntry(entry) for entry in entries]
        self.loaded = anyio.Event()
        self._changed = anyio.Event()
        self._workspaces: dict[tuple[str, ...], Workspace] = {}
        self._lock = threading.Lock()
        self.loading_started = False

    async def load_all(self) -> None:
        """Load every source, one after the other, off the event loop."""
        for number, catalog_entry in enumerate(self.entries, start=1):
            _warn(f"loading source {catalog_entry.name} ({number}/{len(self.entries)})")
            try:
                catalog_entry.source = await anyio.to_thread.run_sync(_load, catalog_entry.entry)
            except PandoraError as error:
                catalog_entry.error = str(error)
            except Exception as error:  # a loader's bug must not stop the server
                catalog_entry.error = f"{type(error).__name__}: {error}"
            if catalog_entry.error:
                print(
                    f"pandora: source {catalog_entry.name}: {catalog_entry.error}", file=sys.stderr
                )
            self._signal_change()
        self._check_unique_names()
        self.loaded.set()
        self._signal_change()

    async def wait_until_loaded(self, report: ProgressReporter | None = None) -> None:
        """Return once loading is over, reporting progress meanwhile when asked."""
        while not self.loaded.is_set():
            if report is not None:
                done = sum(entry.status != "loading" for entry in self.entries)
                loading = next(e.name for e in self.entries if e.status == "loading")
                await report(done, len(self.entries), f"loading source {loading}")
            changed = self._changed
            with anyio.move_on_after(PROGRESS_INTERVAL_SECONDS):
                await changed.wait()

    def names_by_location(self) -> dict[str, str]:
        """The configured location of each source, and the source's name."""
        return {entry.entry.location: entry.name for entry in self.entries}

    def ready_sources(self) -> list[Source]:
        """Every source that loaded, in configuration order."""
        return [entry.source for entry in self.entries if entry.source is not None]

    def source(self, name: str) -> Source:
        """The loaded source called `name`; a clear error when it failed or is unknown."""
        for entry in self.entries:
            if entry.source is not None and entry.source.name == name:
                return entry.source
            if entry.error is not None and entry.name == name:
                raise BadInputError(f"source {name!r} failed to load: {entry.error}")
        known = ", ".join(source.name for source in self.ready_sources()) or "none"
        raise BadInputError(f"no source named {name!r}; loaded sources: {known}")

    def workspace(
        self,
        names: Sequence[str] | None = None,
        default_kinds: Sequence[str] = ("table", "database"),
    ) -> Workspace:
        """A workspace over the named sources (every loaded source of `default_kinds`
        when none are named), reused between calls so BOXes and schemas are built once."""
        if names:
            chosen = [self.source(name) for name in dict.fromkeys(names)]
        else:
            chosen = [s for s in self.ready_sources() if s.kind in default_kinds]
            if not chosen:
                wanted = " or ".join(default_kinds)
                raise BadInputError(f"no {wanted} source is loaded; name one in `sources`")
        key = tuple(source.name for source in chosen)
        from plugins import Workspace

        with self._lock:
            if key not in self._workspaces:
                self._workspaces[key] = Workspace.of(chosen)
            return self._workspaces[key]

    def sql_workspace(self, names: Sequence[str] | None = None) -> Workspace:
        """A workspace SQL can run on: the named sources, else the one loaded
        database, else every loaded table (queried together as one database)."""
        if names:
            return self.workspace(names)
        databases = [s.name for s in self.ready_sources() if s.kind == "database"]
        if len(databases) > 1:
            raise BadInputError(
                f"several databases are loaded ({', '.join(databases)}): name one in `sources`"
            )
        return self.workspace(databases or None, default_kinds=("table",))

    def _signal_change(self) -> None:
        changed, self._changed = self._changed, anyio.Event()
        changed.set()

    def _check_unique_names(self) -> None:
        seen: set[str] = set()
        for entry in self.entries:
            if entry.source is None:
                continue
            if entry.source.name in seen:
                entry.error = (
                    f"another source is already called {entry.source.name!r}; "
                    "give this one a `name`"
                )
                entry.source = None
                _warn(f"source {entry.entry.location}: {entry.error}")
            else:
                seen.add(entry.source.name)


def _warn(message: str) -> None:
    print(f"pandora: {message}", file=sys.stderr)


def _load(entry: SourceEntry) -> Source:
    from plugins import load_source

    return load_source(entry.location, plugin=entry.plugin, name=entry.name)
