"""The two small protocols a plugin implements: `Loader` and `Representation`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from plugins.model import Box, Focus, SchemaItem, Source, SourceKind, Vocabulary

if TYPE_CHECKING:
    from plugins.workspace import Workspace


@runtime_checkable
class Loader(Protocol):
    """Opens one kind of raw source.

    `extensions` (with the dot, lower case) and `schemes` (URL schemes such as
    `postgresql`) decide which locations it is chosen for when the user names
    no plugin; `name` is what `--plugin` selects.
    """

    name: str
    kind: SourceKind
    extensions: tuple[str, ...]
    schemes: tuple[str, ...]

    def load(self, location: str, name: str | None) -> Source:
        """Open `location` read-only; `name` overrides the default source name."""
        ...


@runtime_checkable
class Representation(Protocol):
    """One way of showing sources to the LLM and the code it writes for them.

    `language` is the language of that code: Python code is run by the
    executor with the variables of `namespace`; SQL is run by `run_query`.

    The members after `namespace` are optional: inherit
    `plugins.RepresentationDefaults` to get their defaults, or leave them out
    and the registry supplies the same defaults (see docs/plugins.md).
    """

    name: str
    description: str
    kinds: tuple[SourceKind, ...]
    language: Literal["python", "sql"]

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        """The text the LLM sees for `workspace`: structure only unless
        `values` asks for up to that many example values per field (rows per
        table), within the representation's own size budget."""
        ...

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        """The variables generated Python code sees (BOXes, a graph, ...)."""
        ...

    schema_heading: str
    code_requirement: str

    def instruction(self, workspace: Workspace) -> str:
        """The system instruction of the code prompt, before the agent's reply format."""
        ...

    def demonstration_code(self, code: str) -> str:
        """A demonstration's code as the prompt shows it."""
        ...

    def schema_items(self, workspace: Workspace, focus: Focus | None = None) -> list[SchemaItem]:
        """The BOXes or tables schema linking keeps or drops on a big schema."""
        ...

    def schema_notes(
        self, workspace: Workspace, focus: Focus | None, shown: list[str] | None
    ) -> list[str]:
        """Lines added after the schema; `shown` are the items schema linking kept."""
        ...

    def boxes(self, workspace: Workspace, focus: Focus | None = None) -> list[Box]:
        """The BOXes generated code sees as variables."""
        ...

    def vocabulary(self, workspace: Workspace, focus: Focus | None = None) -> Vocabulary:
        """Where feedback on a failed program looks names and values up."""
        ...

    def soft_answer(self, code: str) -> list[list[str]] | None:
        """The answer stated in code that could not run (marked soft)."""
        ...
