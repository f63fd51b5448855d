"""Where the memory lives and how it embeds, read from the environment.

| variable | meaning | default |
| --- | --- | --- |
| `PANDORA_HOME` | Pandora's folder; the store is `$PANDORA_HOME/memory` | `~/.pandora` |
| `PANDORA_EMBEDDING` | embedding name (see `memory.embeddings`) | `e5+hashed` |
| `PANDORA_MEMORY_URL` | a Chroma server shared by a team (`http://host:8000`) | none: local store |
| `PANDORA_MEMORY_MASKING` | mask names and values before embedding (`1`/`0`) | `DEFAULT_MASKING` |
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from plugins.errors import BadInputError

# Chosen by benchmarks/memory_retrieval.py: with the default embedding
# (e5+hashed) masking lowered paraphrases found first from 0.82 to 0.76 and
# raised same-pattern precision@10 only from 0.42 to 0.44 (docs/memory.md).
DEFAULT_MASKING = False


@dataclass(frozen=True)
class MemorySettings:
    """The memory's configuration: local folder or server, embedding, masking."""

    home: Path
    embedding: str | None = None
    server_url: str | None = None
    masking: bool = DEFAULT_MASKING

    @property
    def store_path(self) -> Path:
        """The folder of the local store."""
        return self.home / "memory"

    @property
    def location(self) -> str:
        """Where the demonstrations are, for messages: a folder or a server URL."""
        return self.server_url or str(self.store_path)

    @classmethod
    def from_env(cls) -> MemorySettings:
        """Settings from `PANDORA_HOME`, `PANDORA_EMBEDDING`, `PANDORA_MEMORY_URL`
        and `PANDORA_MEMORY_MASKING`."""
        home = Path(os.environ.get("PANDORA_HOME") or Path.home() / ".pandora").expanduser()
        return cls(
            home=home,
            embedding=os.environ.get("PANDORA_EMBEDDING") or None,
            server_url=os.environ.get("PANDORA_MEMORY_URL") or None,
            masking=_flag(os.environ.get("PANDORA_MEMORY_MASKING"), DEFAULT_MASKING),
        )


def _flag(value: str | None, default: bool) -> bool:
    if value is None or value.strip() == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise BadInputError(f"PANDORA_MEMORY_MASKING={value!r}: use 1 or 0")
