"""The build journal: one JSON line per finished sample, appended as it finishes.

A build that stops (budget, Ctrl-C, crash) is resumed by running it again
with the same journal: samples already in it are skipped.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from memory.building.models import JournalEntry
from plugins.errors import BadInputError


class Journal:
    """The finished samples of a build, kept in a JSON-lines file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, JournalEntry] = {}
        if path.exists():
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    entry = JournalEntry.model_validate_json(line)
                except ValidationError:
                    raise BadInputError(
                        f"{path}:{number}: not a build journal line; use another --journal"
                    ) from None
                self.entries[entry.id] = entry

    def done(self, sample_id: str) -> bool:
        """Whether the sample was finished by an earlier run."""
        return sample_id in self.entries

    def record(self, entry: JournalEntry) -> None:
        """Append one finished sample (flushed at once, so a crash loses nothing)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(entry.model_dump_json() + "\n")
        self.entries[entry.id] = entry
