"""Limits on what one build may spend: LLM calls, tokens and wall-clock time."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass
class Budget:
    """Spending limits of one run (None: no limit) and what was spent so far."""

    max_llm_calls: int | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None
    llm_calls: int = 0
    tokens: int = 0
    started: float = field(default_factory=time.monotonic)

    def charge(self, llm_calls: int, tokens: int) -> None:
        """Record what one LLM-backed step cost."""
        self.llm_calls += llm_calls
        self.tokens += tokens

    def exhausted(self) -> str | None:
        """The name of the first limit reached, or None while there is budget left."""
        if self.max_llm_calls is not None and self.llm_calls >= self.max_llm_calls:
            return "llm_calls"
        if self.max_tokens is not None and self.tokens >= self.max_tokens:
            return "tokens"
        if self.max_seconds is not None and self.elapsed >= self.max_seconds:
            return "seconds"
        return None

    @property
    def elapsed(self) -> float:
        """Seconds since the run started."""
        return time.monotonic() - self.started
