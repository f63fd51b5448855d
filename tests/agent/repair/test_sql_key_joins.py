"""A join comparing a foreign key with the wrong column of the table it
refers to, on a real Spider4SPARQL-style KG (`city.ref_countrycode` holds the
country entity and refers to `country.country`; `country.code` holds `FRA`):
the query runs to nothing, the repair compares the key with its target, and
the repaired query, run by the real executor, gives the cities."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent import ask
from agent.repair.sql_key_joins import repair_key_joins
from plugins import Box, Focus, Workspace, load_source
from plugins.executor import execute
from plugins.pandas_box.kg_to_box import kg_to_boxes
from tests.agent.conftest import fenced
from tests.fake_openai import Step

WORLD = Path(__file__).parents[2] / "plugins" / "knowledge_graph" / "fixtures" / "world_small.ttl"
FOCUS = Focus(entities=("France",), hops=2)
WRONG_KEY = (
    "SELECT T1.name FROM city AS T1 JOIN country AS T2 "
    "ON T1.ref_countrycode = T2.code WHERE T2.name = 'France' ORDER BY T1.name"
)
RIGHT_KEY = (
    "SELECT T1.name FROM city AS T1 JOIN country AS T2 "
    "ON T1.ref_countrycode = T2.country WHERE T2.name = 'France' ORDER BY T1.name"
)


@pytest.fixture(scope="module")
def world() -> Workspace:
    return Workspace.of([load_source(str(WORLD))])


@pytest.fixture(scope="module")
def boxes(world: Workspace) -> list[Box]:
    return kg_to_boxes(world.sources[0], FOCUS)


def rows(code: str, workspace: Workspace) -> list[list[object]]:
    outcome = execute(code, workspace, "sql", focus=FOCUS)
    assert outcome.error is None, outcome.error
    return [list(row) for row in outcome.result]


def test_the_key_is_declared_and_the_wrong_column_runs_to_nothing(world, boxes):
    city = next(box for box in boxes if box.name == "city")
    assert ("ref_countrycode", "country", "country") in {
        (key.field, key.ref_box, key.ref_field) for key in city.foreign_keys
    }
    assert rows(WRONG_KEY, world) == []
    assert rows(RIGHT_KEY, world) == [["Lyon"], ["Paris"]]


@pytest.mark.parametrize(
    "condition", ["T1.ref_countrycode = T2.code", "T2.code = T1.ref_countrycode"]
)
def test_a_key_compared_with_another_column_of_its_table_gets_its_target(world, boxes, condition):
    code = WRONG_KEY.replace("T1.ref_countrycode = T2.code", condition)
    repaired = repair_key_joins(code, boxes, "sqlite")
    assert repaired is not None
    assert repaired.changes == ("join T1.ref_countrycode = T2.code -> country",)
    assert rows(repaired.code, world) == [["Lyon"], ["Paris"]]


@pytest.mark.parametrize(
    "code",
    [
        RIGHT_KEY,  # already the key's target
        "SELECT name FROM city WHERE countrycode = 'FRA'",  # no join
        "SELECT T1.name FROM city AS T1 JOIN country AS T2 ON ref_countrycode = T2.code",
        "SELECT T1.name FROM city AS T1 JOIN city AS T2 ON T1.id = T2.population",  # no key
        "SELECT T1.name FROM city AS T1 JOIN country AS T1 ON T1.ref_countrycode = T1.code",
        "SELECT FROM WHERE",  # does not parse
    ],
)
def test_what_the_keys_do_not_decide_is_left_alone(boxes, code):
    assert repair_key_joins(code, boxes, "sqlite") is None


def test_through_the_graph_the_query_is_repaired_with_no_second_call(llm, one_candidate):
    with llm(Step(fenced(WRONG_KEY, "sql"))) as server:
        answer = ask(
            "Which cities are in France?", [str(WORLD)], entities=["France"], context=one_candidate
        )
    assert len(server.requests) == 1
    assert answer.answer == [["Lyon"], ["Paris"]]
    repairs = [event.detail["changes"] for event in answer.trace if event.node == "repair"]
    assert repairs == [["join T1.ref_countrycode = T2.code -> country"]]
