"""What the server holds for its whole life: the sources, the execution gate,
the settings and the memory; created with the server, its sources loaded in
its lifespan, shared by every call."""

from __future__ import annotations

import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio

from mcp_server.catalog import SourceCatalog
from mcp_server.config import ServerConfig, ServerSettings
from mcp_server.schemas import SchemaCache
from plugins.errors import BadInputError, PandoraError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from memory import DemonstrationStore


class ServerBusy(PandoraError):
    """Every execution slot stayed taken for the whole waiting time."""


@dataclass
class ExecutionGate:
    """At most `limit` programs run at once; a call waits up to `wait_seconds`
    for a slot and then gets a clear busy error instead of piling up."""

    limit: int
    wait_seconds: float
    semaphore: anyio.Semaphore = field(init=False)

    def __post_init__(self) -> None:
        self.semaphore = anyio.Semaphore(self.limit)

    async def acquire(self) -> None:
        """Take one execution slot, waiting up to `wait_seconds`; `ServerBusy` after that."""
        try:
            self.semaphore.acquire_nowait()
        except anyio.WouldBlock:
            with anyio.move_on_after(self.wait_seconds) as waiting:
                await self.semaphore.acquire()
            if waiting.cancelled_caught:
                raise ServerBusy(
                    f"the server is busy: {self.limit} programs are running and none finished "
                    f"within {self.wait_seconds:g} s; try again in a moment"
                ) from None

    def release(self) -> None:
        """Give back a slot taken by `acquire`."""
        self.semaphore.release()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one execution slot for the duration of the block."""
        await self.acquire()
        try:
            yield
        finally:
            self.release()


@dataclass
class ServerState:
    """The lifespan context every tool, resource and prompt reads."""

    settings: ServerSettings
    catalog: SourceCatalog
    gate: ExecutionGate
    schemas: SchemaCache = field(default_factory=SchemaCache)
    _store: DemonstrationStore | None = None
    _store_lock: threading.Lock = field(default_factory=threading.Lock)
    _chat_model: BaseChatModel | None = None
    _chat_model_checked: bool = False
    _chat_model_lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def create(cls, config: ServerConfig) -> ServerState:
        """A state for `config`; its sources are loaded by the server's lifespan."""
        settings = config.settings
        return cls(
            settings=settings,
            catalog=SourceCatalog(config.sources),
            gate=ExecutionGate(settings.max_concurrent_runs, settings.busy_wait_seconds),
        )

    def store(self) -> DemonstrationStore:
        """The demonstration memory the environment configures, opened on first use."""
        from memory import DemonstrationStore

        with self._store_lock:
            if self._store is None:
                self._store = DemonstrationStore.open()
            return self._store

    def server_chat_model(self) -> BaseChatModel | None:
        """The LLM the environment configures for this server (the agent's rules,
        the local model included), or None when there is none; chosen once."""
        from agent.llm import LLMNotConfiguredError, configured_chat_model

        with self._chat_model_lock:
            if not self._chat_model_checked:
                try:
                    self._chat_model = configured_chat_model()
                except LLMNotConfiguredError:
                    self._chat_model = None
                self._chat_model_checked = True
            return self._chat_model

    def warm_workers(self) -> None:
        """Start the executor's workers for the default pandas and SQL workspaces
        now, so the first program does not pay for them."""
        from plugins.executor import default_pool

        for representation, workspace_of in (
            ("pandas", self.catalog.workspace),
            ("sql", self.catalog.sql_workspace),
        ):
            try:
                workspace = workspace_of()
            except BadInputError:
                continue  # no source this representation runs on by default
            try:
                default_pool().warm(workspace, representation)
            except PandoraError as error:
                print(f"pandora: no warm {representation} worker: {error}", file=sys.stderr)
