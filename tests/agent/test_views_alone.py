"""The joined views alone (`AgentContext.views_alone`): when the views join
every table and lose no row of them, the schema the LLM sees is the views,
half the prompt, and the tables stay queryable. LLM replies come from a
fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import dataclasses

from agent import AgentContext, ask
from agent.planning import prompt_schema
from evaluation.configurations import CONFIGURATIONS
from evaluation.runner import configured_context
from plugins import Workspace, load_source
from plugins.sql_schema.targets import DatabaseTarget
from tests.agent.conftest import fenced
from tests.fake_openai import Step

QUESTION = "How many gold medals did Ann Example win?"


def schemas(path, representation="sql"):
    workspace = Workspace.of([load_source(str(path))])
    return [
        prompt_schema(workspace, representation, None, QUESTION, 8, 4, 3, True, views_alone)
        for views_alone in (False, True)
    ]


def test_a_view_joining_every_table_is_shown_alone(medals_database):
    beside, alone = schemas(medals_database)
    assert alone.shown_text.startswith("CREATE VIEW medal_details (")
    assert "CREATE TABLE" not in alone.shown_text
    assert "-- (1, 'Gold', 2016, 'Rio', 'Singles', 'Olympic Games'" in alone.shown_text
    assert alone.shown_text in beside.shown_text  # the view's block, as it was beside the tables
    assert len(alone.shown_text) < len(beside.shown_text) / 2
    assert alone.full_text == beside.full_text  # the program cache's key does not change


def test_a_view_that_loses_rows_keeps_its_tables(examples):
    """The music shop's purchases leave out what was never sold."""
    beside, alone = schemas(examples / "music.sqlite")
    assert alone.shown_text == beside.shown_text
    assert "CREATE TABLE artist (" in alone.shown_text


def test_only_the_views_alone_query_the_data_for_left_out_rows(medals_database, monkeypatch):
    """The check costs a query per link: the default schema never runs it."""
    checked = []
    monkeypatch.setattr(
        DatabaseTarget, "view_loses_no_row", lambda target, view: checked.append(view.name) or True
    )
    workspace = Workspace.of([load_source(str(medals_database))])
    prompt_schema(workspace, "sql", None, QUESTION, 8, 4, 3, True, False)
    assert checked == []
    prompt_schema(workspace, "sql", None, QUESTION, 8, 4, 3, True, True)
    assert checked == ["medal_details"]


def test_views_alone_needs_the_views(medals_database):
    workspace = Workspace.of([load_source(str(medals_database))])
    hidden = prompt_schema(workspace, "sql", None, QUESTION, 8, 4, 3, False, True)
    assert "medal_details" not in hidden.shown_text
    assert "CREATE TABLE" in hidden.shown_text


def test_the_agent_asks_over_the_view_and_the_tables_stay_queryable(llm, context, medals_database):
    sql = dataclasses.replace(
        context,
        routes=("sql",),
        candidates=1,
        reply_format="code",
        demonstrations=0,
        joined_views=True,
        views_alone=True,
    )
    on_view = "SELECT COUNT(*) FROM medal_details WHERE medal_type = 'Gold'"
    with llm(Step(fenced(on_view, "sql"))) as server:
        answer = ask(QUESTION, [str(medals_database)], context=sql)
    assert "CREATE VIEW medal_details" in server.prompts()[0]
    assert "CREATE TABLE" not in server.prompts()[0]
    assert answer.answer == [[2]]
    on_tables = "SELECT COUNT(*) FROM Medal WHERE type = 'Gold'"
    with llm(Step(fenced(on_tables, "sql"))):
        answer = ask(QUESTION, [str(medals_database)], context=sql)
    assert answer.error is None
    assert answer.answer == [[2]]


def test_the_views_alone_configuration_turns_it_on():
    base = AgentContext(joined_views=True)
    assert base.views_alone is False
    assert configured_context(base, CONFIGURATIONS["views-alone"]).views_alone is True
    assert configured_context(base, CONFIGURATIONS["pandora"]).views_alone is False
