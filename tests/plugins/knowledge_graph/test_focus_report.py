"""`workspace_focus`: what a focus linked to, as the Answer carries it."""

from __future__ import annotations

import pytest

from agent.answer import Answer
from plugins import Focus, Workspace, load_source
from plugins.errors import BadInputError
from plugins.knowledge_graph.focus_report import workspace_focus
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def films():
    return Workspace.of([load_source(str(EXAMPLES / "films.ttl"))])


def test_each_given_entity_is_reported_with_its_iri_type_and_label(films):
    (focus,) = workspace_focus(films, Focus(entities=("Vertigo", "Federico Fellini"), hops=1))
    assert [(e.mention, e.iri, e.types, e.label, e.score) for e in focus.entities] == [
        ("Vertigo", "http://example.org/films/Vertigo", ["film"], "Vertigo", 1.0),
        (
            "Federico Fellini",
            "http://example.org/films/FedericoFellini",
            ["person"],
            "Federico Fellini",
            1.0,
        ),
    ]
    assert focus.hops == 1 and not focus.whole_graph


def test_a_misspelt_question_entity_is_reported_with_its_fuzzy_score(films):
    (focus,) = workspace_focus(films, Focus(question="Who directed Vertgo?"))
    (entity,) = focus.entities
    assert (entity.mention, entity.label) == ("Vertgo", "Vertigo")
    assert 0.85 <= entity.score < 1.0


def test_a_question_naming_no_entity_of_a_small_graph_reports_the_whole_graph(films):
    (focus,) = workspace_focus(films, Focus(question="How many films are there?"))
    assert focus.whole_graph and focus.entities == []


def test_no_focus_or_no_graph_reports_nothing(films):
    assert workspace_focus(films, None) == []
    music = Workspace.of([load_source(str(EXAMPLES / "music.sqlite"))])
    assert workspace_focus(music, Focus(question="How many albums?")) == []


def test_an_unknown_entity_is_bad_input_naming_the_closest(films):
    with pytest.raises(BadInputError, match="closest labels: Vertigo"):
        workspace_focus(films, Focus(entities=("Vertgo",)))


def test_the_answer_carries_the_focus_as_json(films):
    focus = workspace_focus(films, Focus(entities=("Vertigo",), hops=1))
    answer = Answer(answer=[["Alfred Hitchcock"]], columns=["director"], focus=focus)
    again = Answer.model_validate_json(answer.model_dump_json())
    assert again.focus == focus
    assert again.model_dump()["focus"][0]["entities"][0]["iri"] == (
        "http://example.org/films/Vertigo"
    )
