"""The joined-views switch: AgentContext, PANDORA_JOINED_VIEWS and the
model's default decide whether the schema the LLM sees shows a database's
foreign-key chains pre-joined. LLM replies come from a fake
OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import dataclasses

import pytest

from agent import AgentContext, ask
from agent.model_defaults import LOCAL_MODEL_DEFAULTS, PAPER_DEFAULTS
from agent.planning import prompt_schema, shown_vocabulary
from evaluation.configurations import ABLATIONS, CONFIGURATIONS
from evaluation.runner import configured_context
from plugins import Workspace, get_registry, load_source
from plugins.errors import BadInputError
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

VIEW_SQL = "SELECT artist_name, SUM(amount) FROM purchase_details GROUP BY artist_name ORDER BY 1"
QUESTION = "How much was spent on each artist's tracks?"


@pytest.mark.parametrize("representation", ["sql", "pandas"])
def test_switched_off_the_view_leaves_the_shown_schema_and_its_items(examples, representation):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    shown = prompt_schema(workspace, representation, None, QUESTION, 8, 4, 2, joined_views=True)
    hidden = prompt_schema(workspace, representation, None, QUESTION, 8, 4, 2, joined_views=False)
    assert "purchase_details" in shown.shown_text
    assert "purchase_details" not in hidden.shown_text
    assert hidden.shown_text in shown.shown_text  # the tables' blocks are untouched
    assert hidden.full_text == shown.full_text  # the program cache's key does not change


@pytest.mark.parametrize("representation", ["sql", "pandas"])
def test_switched_off_feedback_and_repair_do_not_see_the_view(examples, representation):
    workspace = Workspace.of([load_source(str(examples / "music.sqlite"))])
    chosen = get_registry().representation(representation)
    shown = [box.name for box in shown_vocabulary(chosen, workspace, None, True).boxes]
    hidden = [box.name for box in shown_vocabulary(chosen, workspace, None, False).boxes]
    assert "purchase_details" in shown
    assert hidden == [name for name in shown if name != "purchase_details"]


def test_the_switch_is_the_context_then_the_environment_then_the_model(monkeypatch):
    monkeypatch.delenv("PANDORA_JOINED_VIEWS", raising=False)
    for variable in ("PANDORA_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("PANDORA_LOCAL_MODEL", "off")  # no model configured: the paper's defaults
    assert AgentContext().joined_views_in_use() is PAPER_DEFAULTS.joined_views is False
    assert LOCAL_MODEL_DEFAULTS.joined_views is True
    monkeypatch.setenv("PANDORA_JOINED_VIEWS", "1")
    assert AgentContext().joined_views_in_use() is True
    assert AgentContext(joined_views=False).joined_views_in_use() is False
    monkeypatch.setenv("PANDORA_JOINED_VIEWS", "yes")
    with pytest.raises(BadInputError, match="PANDORA_JOINED_VIEWS='yes' must be 0 or 1"):
        AgentContext().joined_views_in_use()


def test_the_no_views_ablation_turns_them_off():
    assert "no-views" in ABLATIONS
    base = AgentContext(joined_views=True)
    assert configured_context(base, CONFIGURATIONS["no-views"]).joined_views is False
    assert configured_context(base, CONFIGURATIONS["pandora"]).joined_views is True


def test_the_agent_shows_the_view_and_answers_from_it(llm, context, examples, monkeypatch):
    sql = dataclasses.replace(
        context, representation="sql", candidates=1, reply_format="fenced", demonstrations=0
    )
    monkeypatch.setenv("PANDORA_JOINED_VIEWS", "1")
    with llm(Step(fenced(VIEW_SQL, "sql"))) as server:
        answer = ask(QUESTION, [str(examples / "music.sqlite")], context=sql)
    assert "CREATE VIEW purchase_details (" in server.prompts()[0]
    assert answer.error is None
    assert answer.answer == music_query(
        "SELECT artist.name, SUM(purchase.amount) FROM purchase "
        "JOIN track USING (track_id) JOIN album USING (album_id) "
        "JOIN artist USING (artist_id) GROUP BY artist.name ORDER BY 1"
    )
    monkeypatch.setenv("PANDORA_JOINED_VIEWS", "0")
    with llm(Step(fenced("SELECT 1", "sql"))) as server:
        ask(QUESTION, [str(examples / "music.sqlite")], context=sql)
    assert "purchase_details" not in server.prompts()[0]
