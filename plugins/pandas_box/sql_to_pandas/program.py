"""The pandas program being written: code lines, `#` reasoning steps, fresh names."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Program:
    """Lines of pandas code interleaved with the reasoning steps that explain them."""

    lines: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)

    def step(self, text: str) -> None:
        """A reasoning step: a `#` comment in the code and a line of the reasoning."""
        one_line = " ".join(text.split())
        self.lines.append(f"# {one_line}")
        self.steps.append(one_line)

    def line(self, code: str) -> None:
        """One statement of the program."""
        self.lines.append(code)

    def fresh(self, prefix: str) -> str:
        """A variable name not used before in this program: `prefix`, `prefix_2`, ..."""
        count = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = count
        return prefix if count == 1 else f"{prefix}_{count}"

    @property
    def code(self) -> str:
        """The whole program as text."""
        return "\n".join(self.lines) + "\n"
