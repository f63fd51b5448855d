"""The optional members of a representation: the defaults, and the registry
completing a representation that does not inherit them."""

from __future__ import annotations

from typing import Any

from plugins import RepresentationDefaults, Vocabulary, Workspace, get_registry, load_source
from plugins.representation_defaults import (
    OPTIONAL_MEMBERS,
    CompletedRepresentation,
    with_defaults,
)


class Minimal:
    name = "minimal"
    description = "one line per table"
    kinds = ("table",)
    language = "sql"

    def render_schema(self, workspace: Workspace, focus: Any = None, values: int = 0) -> str:
        return "tables"

    def namespace(self, workspace: Workspace, focus: Any = None) -> dict[str, Any]:
        return {}

    def run_query(self, *arguments: Any) -> str:
        return "ran"


class WithHeading(Minimal):
    schema_heading = "## Tables"

    def soft_answer(self, code: str) -> list[list[str]] | None:
        return [[code]]


def test_the_built_ins_have_every_optional_member_themselves():
    for name in ("pandas", "networkx", "sql"):
        representation = get_registry().representation(name)
        assert isinstance(representation, RepresentationDefaults)
        assert with_defaults(representation) is representation


def test_a_representation_without_the_optional_members_gets_the_defaults(examples):
    completed = with_defaults(Minimal())
    assert isinstance(completed, CompletedRepresentation)
    assert all(hasattr(completed, member) for member in OPTIONAL_MEMBERS)
    workspace = Workspace.of([load_source(str(examples / "cities.csv"))])
    assert (completed.name, completed.language, completed.run_query()) == ("minimal", "sql", "ran")
    assert completed.render_schema(workspace) == "tables"
    assert completed.schema_heading == "## Schema" and completed.code_requirement == ""
    assert completed.instruction(workspace) == (
        "You answer questions about data by writing one read-only SQL query.\n"
        "The schema below shows the data as one line per table; use only the names it shows."
    )
    assert completed.demonstration_code("# step\nSELECT 1") == "# step\nSELECT 1"
    assert completed.schema_items(workspace) == []
    assert completed.schema_notes(workspace, None, None) == []
    assert completed.boxes(workspace) == []
    assert completed.vocabulary(workspace) == Vocabulary()
    assert completed.soft_answer("-- answer: 1") is None


def test_the_members_a_representation_has_are_its_own():
    completed = with_defaults(WithHeading())
    assert completed.schema_heading == "## Tables"
    assert completed.soft_answer("x") == [["x"]]
    assert completed.code_requirement == ""
