"""The optional members of a `Representation` and what a representation that
does not define them gets.

A representation may inherit `RepresentationDefaults` and override only the
members it cares about (the built-ins do). One that does not inherit it is
completed by the registry (`with_defaults`), so the agent and the MCP server
can call every member of every registered representation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.model import Box, Focus, SchemaItem, Vocabulary

if TYPE_CHECKING:
    from plugins.protocols import Representation
    from plugins.workspace import Workspace

DEFAULT_TASKS = {
    "python": "Python code that assigns the answer to `result`",
    "sql": "one read-only SQL query",
}
"""What the default instruction asks for, by the `language` of the code."""

OPTIONAL_MEMBERS = (
    "schema_heading",
    "code_requirement",
    "instruction",
    "demonstration_code",
    "schema_items",
    "schema_notes",
    "boxes",
    "vocabulary",
    "soft_answer",
)


class RepresentationDefaults:
    """The optional members of `plugins.protocols.Representation` with their
    defaults: a generic instruction, no schema linking, no notes, no BOXes,
    feedback from the interpreter's message alone, no soft answer."""

    description: str
    language: str

    schema_heading: str = "## Schema"
    """The heading the prompt puts above the schema text."""
    code_requirement: str = ""
    """A sentence said after the agent's reply format, on what the code must
    define (KG2Code: the `KGQA` function); empty for none."""

    def instruction(self, workspace: Workspace) -> str:
        """The system instruction of the code prompt, before the agent's reply
        format: what the code is and how to use the schema shown."""
        task = DEFAULT_TASKS.get(self.language, f"{self.language} code")
        return (
            f"You answer questions about data by writing {task}.\n"
            f"The schema below shows the data as {self.description}; "
            "use only the names it shows."
        )

    def demonstration_code(self, code: str) -> str:
        """A demonstration's code as the prompt shows it: unchanged."""
        return code

    def schema_items(self, workspace: Workspace, focus: Focus | None = None) -> list[SchemaItem]:
        """The items schema linking may keep or drop; none: the schema is
        always shown whole."""
        return []

    def schema_notes(
        self, workspace: Workspace, focus: Focus | None, shown: list[str] | None
    ) -> list[str]:
        """Lines added after the schema (`shown`: the item names schema linking
        kept, None for all); none."""
        return []

    def boxes(self, workspace: Workspace, focus: Focus | None = None) -> list[Box]:
        """The BOXes generated code sees as variables; none."""
        return []

    def vocabulary(self, workspace: Workspace, focus: Focus | None = None) -> Vocabulary:
        """Where feedback on a failed program finds the nearest names and
        values: the representation's BOXes."""
        return Vocabulary(boxes=self.boxes(workspace, focus))

    def soft_answer(self, code: str) -> list[list[str]] | None:
        """The answer a program states without running (read when it could
        not run, and marked soft); none."""
        return None


def with_defaults(representation: Representation) -> Representation:
    """`representation` itself when it has every optional member, else the
    same representation completed with the defaults of the missing ones."""
    if all(hasattr(representation, name) for name in OPTIONAL_MEMBERS):
        return representation
    return CompletedRepresentation(representation)


class CompletedRepresentation(RepresentationDefaults):
    """A representation that lacks some optional members, with the defaults
    of those; every other member is the plugin's own."""

    def __init__(self, plugin: Any):
        self.plugin = plugin
        for name in OPTIONAL_MEMBERS:
            if hasattr(plugin, name):
                setattr(self, name, getattr(plugin, name))

    def __getattr__(self, name: str) -> Any:
        # reached only for names this object lacks: the plugin's required members
        return getattr(self.plugin, name)
