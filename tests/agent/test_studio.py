"""The graph as LangGraph Studio (`langgraph dev`) starts it: `langgraph.json`
names the module-level compiled graph, its run settings are a JSON schema
pydantic can build, and a run given no context, or a partial one as a dict
(what Studio sends), takes the defaults of the configured model as `ask` does.
The configured model is the local one, served by the real server process with
the stand-in for llama.cpp (tests/agent/local_standin.py): no model is loaded."""

from __future__ import annotations

import importlib.util
import json

from langgraph.graph.state import CompiledStateGraph

from agent.answer import Answer
from agent.model_defaults import LOCAL_MODEL_DEFAULTS
from tests.agent.test_local_model_server import ALBUMS, QUESTION, standin
from tests.conftest import REPOSITORY

__all__ = ["standin"]  # the fixture, shared with the server's lifecycle tests

LIVE_OBJECTS = {"workspace", "chat_model", "on_event", "store"}


def studio_graph() -> CompiledStateGraph:
    """The graph `langgraph.json` names, loaded from its file as `langgraph dev` does."""
    declared = json.loads((REPOSITORY / "langgraph.json").read_text())["graphs"]["pandora"]
    path, name = declared.split(":")
    spec = importlib.util.spec_from_file_location("studio_graph", REPOSITORY / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def demonstrations_shown(answer: Answer) -> list[list[str]]:
    """The questions of the demonstrations each candidate's prompt showed."""
    return [
        event.detail["questions"]
        for event in answer.trace
        if event.node == "retrieve_demonstrations"
    ]


def test_the_run_settings_schema_builds_without_the_live_objects():
    schema = studio_graph().get_context_jsonschema()
    assert schema is not None
    fields = schema["properties"]
    assert {"demonstrations", "max_attempts", "routes", "reply_format", "retrieval"} <= set(fields)
    assert not LIVE_OBJECTS & set(fields)
    reply_format = json.dumps(fields["reply_format"])
    assert '"json"' in reply_format and '"fenced"' in reply_format


def test_a_run_with_no_context_takes_the_local_model_s_defaults(standin, examples):
    graph = studio_graph()
    sources = [str(examples / "music.sqlite")]
    answer = graph.invoke({"question": QUESTION, "sources": sources})["answer"]
    assert answer.error is None and answer.answer == ALBUMS
    assert answer.representation == LOCAL_MODEL_DEFAULTS.routes[0]
    counts = {len(questions) for questions in demonstrations_shown(answer)}
    assert counts == {LOCAL_MODEL_DEFAULTS.demonstrations}


def test_a_partial_context_from_studio_keeps_the_other_defaults(standin, examples):
    """Studio sends the settings the user changed as a dict: those apply, the
    rest stay the model's."""
    graph = studio_graph()
    sources = [str(examples / "music.sqlite")]
    result = graph.invoke({"question": QUESTION, "sources": sources}, context={"demonstrations": 1})
    answer = result["answer"]
    assert answer.answer == ALBUMS
    assert answer.representation == LOCAL_MODEL_DEFAULTS.routes[0]
    assert {len(questions) for questions in demonstrations_shown(answer)} == {1}
