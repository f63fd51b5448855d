"""The live line `pandora ask` shows on stderr while an LLM request runs:
its reply tokens so far and its seconds. On a terminal it is rewritten in
place twice a second; elsewhere (a log, a pipe) a line is written when a
request starts, every `LOG_EVERY_SECONDS`, and when it ends."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from agent.llm_progress import CallTracker

TERMINAL_EVERY_SECONDS = 0.5
LOG_EVERY_SECONDS = 15.0


class LiveLine:
    """A `CallReporter` (agent.llm_progress) writing to `stream`."""

    def __init__(self, stream: TextIO | None = None):
        self._stream = stream or sys.stderr
        self._terminal = self._stream.isatty()
        self._lock = threading.Lock()
        self._numbers: dict[int, int] = {}
        self._active: dict[int, CallTracker] = {}
        self._calls = 0
        self._wake = threading.Event()
        self._ticker: threading.Thread | None = None

    def call_started(self, call: CallTracker) -> None:
        """Number the request and show it."""
        with self._lock:
            self._calls += 1
            self._numbers[id(call)] = self._calls
            self._active[id(call)] = call
            if self._ticker is None or not self._ticker.is_alive():
                self._ticker = threading.Thread(target=self._tick, daemon=True)
                self._ticker.start()
        if not self._terminal:
            self._write(self._text([call]), final=True)

    def call_progress(self, call: CallTracker) -> None:
        """Nothing at once: the ticker shows the new count."""

    def call_finished(self, call: CallTracker) -> None:
        """Show the request's last count and seconds on a line of its own."""
        with self._lock:
            self._active.pop(id(call), None)
            text = self._text([call])
            self._numbers.pop(id(call), None)
        self._write(text, final=True)

    def _tick(self) -> None:
        every = TERMINAL_EVERY_SECONDS if self._terminal else LOG_EVERY_SECONDS
        while True:
            time.sleep(every)
            with self._lock:
                active = list(self._active.values())
                if not active:
                    self._ticker = None
                    return
                text = self._text(active)
            self._write(text, final=not self._terminal)

    def _text(self, calls: list[CallTracker]) -> str:
        numbers = ", ".join(str(self._numbers.get(id(call), "?")) for call in calls)
        tokens = sum(call.tokens for call in calls)
        seconds = max(time.monotonic() - call.started_at for call in calls)
        label = "LLM call" if len(calls) == 1 else "LLM calls"
        return f"pandora: {label} {numbers}: {tokens} tokens, {seconds:.0f} s"

    def _write(self, text: str, final: bool) -> None:
        if self._terminal:
            end = "\n" if final else ""
            self._stream.write(f"\r\033[K{text}{end}")
        else:
            self._stream.write(text + "\n")
        self._stream.flush()
