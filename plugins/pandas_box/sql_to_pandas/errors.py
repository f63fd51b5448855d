"""The one error of the translator: a SQL construct it does not translate."""

from __future__ import annotations

from plugins.errors import PandoraError


class UntranslatableSql(PandoraError):
    """The query uses `construct`, which the translator does not turn into pandas.

    The memory builder sends such queries to the LLM path instead.
    """

    def __init__(self, construct: str, detail: str = "") -> None:
        self.construct = construct
        message = f"cannot translate {construct} to pandas"
        super().__init__(f"{message}: {detail}" if detail else message)
