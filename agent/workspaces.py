"""The workspace a run works on: the caller's, or its sources opened once per process."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from plugins import Workspace, load_source
from plugins.sources import url_scheme

_lock = threading.Lock()
_opened: dict[tuple[tuple[str, float, int], ...], Workspace] = {}
MAX_OPENED = 8


def open_workspace(locations: Sequence[str]) -> Workspace:
    """The workspace of `locations`, opened once per process and opened again
    when a file changes (key: location, modification time, size)."""
    key = tuple(_version(location) for location in locations)
    with _lock:
        workspace = _opened.get(key)
        if workspace is None:
            workspace = Workspace.of(load_source(location) for location in locations)
            if len(_opened) >= MAX_OPENED:
                _opened.pop(next(iter(_opened)))
            _opened[key] = workspace
        return workspace


def workspace_of(sources: Sequence[str], given: Workspace | None) -> Workspace:
    """The workspace a run works on: `given` (the caller opened it), else `sources` opened."""
    return given if given is not None else open_workspace(sources)


def source_locations(workspace: Workspace) -> list[str]:
    """Where the workspace's sources were opened from, in order."""
    return [source.location for source in workspace.sources]


def _version(location: str) -> tuple[str, float, int]:
    if url_scheme(location):
        return (location, 0.0, 0)
    try:
        status = os.stat(location)
    except OSError:
        return (location, 0.0, 0)  # load_source reports the missing file
    return (location, status.st_mtime, status.st_size)
