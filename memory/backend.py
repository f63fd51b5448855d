"""Opening Chroma: a local `PersistentClient` or a shared `HttpClient`.

A store that cannot be read (a damaged file, a store written by a newer
Chroma or Pandora) is reported in one line and never written to: Pandora
checks the SQLite header before Chroma opens the folder, and opens nothing
when the check fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from memory.locking import WriteLock
from memory.settings import MemorySettings
from plugins.errors import BadInputError

if TYPE_CHECKING:  # chromadb takes 0.6 s to import: only when a store is opened
    import chromadb
    from chromadb.api import ClientAPI

SQLITE_HEADER = b"SQLite format 3\x00"
CHROMA_FILE = "chroma.sqlite3"
LOCK_FILE = "write.lock"


class MemoryStoreError(BadInputError):
    """The store cannot be used as it is; it was left untouched."""


def chroma_settings() -> chromadb.Settings:
    """Chroma's settings for Pandora's clients: no telemetry, no reset.

    Chroma keeps one client per folder per process and refuses a second one
    with other settings, so every client of a store must use these.
    """
    import chromadb

    return chromadb.Settings(anonymized_telemetry=False, allow_reset=False)


def open_client(settings: MemorySettings) -> tuple[ClientAPI, WriteLock]:
    """A Chroma client for `settings` and the write lock that goes with it."""
    import chromadb

    if settings.server_url:
        return _http_client(settings.server_url), WriteLock(None)
    folder = settings.store_path
    if folder.exists() and not folder.is_dir():
        raise MemoryStoreError(f"memory store {folder} is not a folder")
    check_local_database(folder, complete_only=True)  # a damaged store gets no lock file
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise MemoryStoreError(f"memory store {folder}: cannot create: {error}") from error
    lock = WriteLock(folder / LOCK_FILE)
    # Chroma creates its tables on first open; two processes doing it at once
    # collide, and one would see the other's half-written database as damaged.
    with lock.held():
        check_local_database(folder)
        try:
            client = chromadb.PersistentClient(path=str(folder), settings=chroma_settings())
        except Exception as error:  # Chroma's own errors: migrations, damaged segments
            raise MemoryStoreError(
                f"memory store {folder} is unreadable ({_one_line(error)}); "
                "it was left unchanged: move it away to start a new one"
            ) from error
    return client, lock


def check_local_database(folder: Path, complete_only: bool = False) -> None:
    """Refuse a store whose database is not SQLite.

    Without the write lock another process may be creating the database, so
    `complete_only` judges only a file long enough to hold a whole header.
    """
    database = folder / CHROMA_FILE
    if not database.exists():
        return
    with open(database, "rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if complete_only and len(header) < len(SQLITE_HEADER):
        return
    if header != SQLITE_HEADER:
        raise MemoryStoreError(
            f"memory store {database} is damaged (not an SQLite database); "
            "it was left unchanged: restore it from an export or move it away"
        )


def _http_client(url: str) -> ClientAPI:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise BadInputError(f"PANDORA_MEMORY_URL={url!r}: expected http(s)://host:port")
    import chromadb

    try:
        return chromadb.HttpClient(
            host=parts.hostname,
            port=parts.port or (443 if parts.scheme == "https" else 8000),
            ssl=parts.scheme == "https",
            settings=chroma_settings(),
        )
    except Exception as error:  # connection refused, TLS, version mismatch
        raise MemoryStoreError(f"memory server {url} is unreachable: {_one_line(error)}") from error


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
