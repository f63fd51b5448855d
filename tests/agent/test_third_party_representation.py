"""A representation from a third-party plugin drives the agent end to end:
its instruction, schema heading, schema items and notes, feedback vocabulary
and soft answer reach the prompts and the answer, and one that defines none
of the optional members works with the defaults. LLM replies come from the
fake OpenAI-compatible server on 127.0.0.1 (tests/fake_openai.py).

The executor's template process is a fresh `python -I` interpreter: it finds
only installed plugins, and these are registered in the test's process alone.
Both representations give code the pandas BOXes as variables, so their
programs run in the real sandbox under the built-in `pandas` representation,
whose namespace is theirs.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agent import AgentContext, ask
from agent.prompts import REPLY_FORMAT
from plugins import Focus, SchemaItem, Workspace, get_registry, hookimpl
from plugins.executor import execute
from plugins.pandas_box import PandasBoxRepresentation, workspace_boxes
from plugins.registry import PluginRegistry
from plugins.representation_defaults import DEFAULT_TASKS, RepresentationDefaults
from tests.fake_openai import Step

OUTLINE_INSTRUCTION = "You answer questions by writing pandas code on the tables outlined below."
OUTLINE_REQUIREMENT = "The code assigns `result`."
QUESTION = "Which city has the most people?"


class OutlineRepresentation(RepresentationDefaults):
    """Each table as one line of its field names; code sees the tables as DataFrames."""

    name = "outline"
    description = "each table as one line of its field names"
    kinds = ("table",)
    language = "python"
    schema_heading = "## Outline"
    code_requirement = OUTLINE_REQUIREMENT

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        return "\n\n".join(
            f"# BOX {box.name}\n{box.name}: {', '.join(map(str, box.frame.columns))}"
            for box in workspace_boxes(workspace, focus)
        )

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        return PandasBoxRepresentation().namespace(workspace, focus)  # the same variables

    def instruction(self, workspace: Workspace) -> str:
        return OUTLINE_INSTRUCTION

    def schema_items(self, workspace: Workspace, focus: Focus | None = None) -> list[SchemaItem]:
        return [
            SchemaItem(box.name, tuple(map(str, box.frame.columns)), ())
            for box in workspace_boxes(workspace, focus)
        ]

    def schema_notes(
        self, workspace: Workspace, focus: Focus | None, shown: list[str] | None
    ) -> list[str]:
        return [f"# outlined: {', '.join(shown or [])}"]

    def boxes(self, workspace: Workspace, focus: Focus | None = None) -> list:
        return workspace_boxes(workspace, focus)

    def soft_answer(self, code: str) -> list[list[str]] | None:
        expected = [line for line in code.splitlines() if line.startswith("# expect: ")]
        return [[expected[-1].removeprefix("# expect: ")]] if expected else None


class BareRepresentation:
    """Only the required members, and no base class."""

    name = "bare"
    description = "the field names of each table"
    kinds = ("table",)
    language = "python"

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        return OutlineRepresentation().render_schema(workspace, focus)

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        return OutlineRepresentation().namespace(workspace, focus)


class ThirdPartyPlugin:
    """What a third-party package would register through its entry point."""

    @hookimpl
    def register_representations(self, register: Callable[..., None]) -> None:
        register(OutlineRepresentation())
        register(BareRepresentation())


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[PluginRegistry]:
    """The process's registry with the third-party plugin added (and removed
    after the test); programs of its representations run as pandas programs."""

    def run_as_pandas(code: str, workspace: Workspace, *, representation: str, **options: Any):
        assert representation in ("outline", "bare")
        return execute(code, workspace, "pandas", **options)

    monkeypatch.setattr(
        importlib.import_module("agent.nodes.execute"), "execute_in_sandbox", run_as_pandas
    )
    registry = get_registry()
    monkeypatch.setattr(registry, "representations", dict(registry.representations))
    monkeypatch.setattr(registry, "contributions", dict(registry.contributions))
    registry.register_plugin(ThirdPartyPlugin(), "third_party")
    yield registry
    registry.manager.unregister(name="third_party")


def reply(code: str) -> str:
    return json.dumps({"reasoning": "take the biggest population", "code": code.splitlines()})


def test_the_plugin_is_listed_with_what_it_contributed(registry):
    assert registry.contributions["third_party"] == [
        "representation:outline",
        "representation:bare",
    ]


def test_a_third_party_representation_shapes_every_prompt_and_the_soft_answer(
    registry, llm, store, examples
):
    failing = "result = citys['City']\n# expect: Shanghai"
    context = AgentContext(store=store, representation="outline", schema_linking_min_boxes=0)
    with llm(Step(reply(failing)), Step(reply(failing)), Step(reply(failing))) as server:
        answer = ask(QUESTION, [str(examples / "cities.csv")], context=context)
    first, second, _ = server.requests
    system, user = (message["content"] for message in first["messages"])
    assert system == f"{OUTLINE_INSTRUCTION}\n{REPLY_FORMAT} {OUTLINE_REQUIREMENT}"
    assert user.startswith("## Outline\n# BOX cities\ncities: City, Country")
    assert "# outlined: cities" in user  # schema items linked, then the notes
    feedback = second["messages"][1]["content"]
    assert "name 'citys' is not defined" in feedback
    assert "Did you mean the BOX 'cities'?" in feedback  # the vocabulary: its BOXes
    assert answer.representation == "outline"
    assert answer.soft is True and answer.answer == [["Shanghai"]]
    assert answer.trace[0].detail["linked_boxes"] == ["cities"]


def test_a_representation_with_only_the_required_members_gets_the_defaults(
    registry, llm, store, examples
):
    code = "result = cities.nlargest(1, 'Population (2020)')['City'].tolist()"
    context = AgentContext(store=store, representation="bare")
    with llm(Step(reply(code))) as server:
        answer = ask(QUESTION, [str(examples / "cities.csv")], context=context)
    system, user = (message["content"] for message in server.requests[0]["messages"])
    assert system.startswith(
        f"You answer questions about data by writing {DEFAULT_TASKS['python']}"
    )
    assert system.endswith(f"\n{REPLY_FORMAT}")
    assert user.startswith("## Schema\n# BOX cities")
    assert answer.error is None and answer.answer == [["Shanghai"]]
    bare = registry.representation("bare")
    assert bare.soft_answer("# answer: 1") is None
    assert bare.boxes(Workspace(), None) == [] and bare.schema_items(Workspace(), None) == []
