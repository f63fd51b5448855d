"""Field, BOX and relation names come from the whole KG's schema, not from
the subgraph: one program gives the same answer at 1, 2 and 3 hops.

Runs real programs through the executor on a small Spider4SPARQL-style KG
(fixtures/world_small.ttl) where `country#name` and `city#name` share a
local name: before names were decided per KG, France's `name` became
`name_2` as soon as city names entered the subgraph (2 hops).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pyoxigraph import NamedNode

from plugins import Focus, Workspace, load_source
from plugins.executor import execute
from plugins.executor.results import render_value
from plugins.knowledge_graph import focus_subgraph
from plugins.pandas_box.kg_to_box import kg_to_boxes

WORLD = Path(__file__).parent / "fixtures" / "world_small.ttl"
ONTOP = "http://valuenet/ontop/"


@pytest.fixture(scope="module")
def world() -> Workspace:
    return Workspace.of([load_source(str(WORLD))])


def france(hops: int) -> Focus:
    return Focus(entities=("France",), hops=hops)


def answer(code: str, workspace: Workspace, focus: Focus, representation: str = "pandas"):
    outcome = execute(code, workspace, representation, focus=focus)
    assert outcome.error is None, outcome.error
    return [[render_value(value) for value in row] for row in outcome.result]


@pytest.mark.parametrize("hops", [1, 2, 3])
def test_a_country_program_answers_alike_at_every_hop_count(world, hops) -> None:
    code = 'result = country.loc[country["name"] == "France", ["name", "population"]]'
    focus = france(hops)
    assert answer(code, world, focus)[-1][-2:] == ["France", "59225700"]


@pytest.mark.parametrize("hops", [2, 3])
def test_a_city_program_answers_alike_once_cities_are_within_reach(world, hops) -> None:
    code = 'result = sorted(city.loc[city["countrycode"] == "FRA", "name"])'
    focus = france(hops)
    assert answer(code, world, focus) == [["Lyon"], ["Paris"]]


@pytest.mark.parametrize("hops", [1, 2, 3])
def test_a_networkx_program_answers_alike_at_every_hop_count(world, hops) -> None:
    code = (
        "def KGQA(question, graph):\n"
        "    return sorted(h for h, t, r in graph.edges(data='relation') if r == 'country_name')\n"
    )
    focus = france(hops)
    assert answer(code, world, focus, "networkx") == [["France"]]


def test_box_fields_are_the_same_at_every_hop_count(world) -> None:
    source = world.sources[0]
    fields_by_hops = [
        {box.name: list(box.frame.columns) for box in kg_to_boxes(source, france(hops))}
        for hops in (2, 3)
    ]
    assert fields_by_hops[0] == fields_by_hops[1]
    assert fields_by_hops[0]["country"] == ["country", "code", "continent", "name", "population"]
    assert fields_by_hops[0]["city"] == [
        "city", "countrycode", "id", "name", "population", "ref_countrycode"
    ]  # fmt: skip
    one_hop = {box.name: list(box.frame.columns) for box in kg_to_boxes(source, france(1))}
    assert one_hop["country"] == fields_by_hops[0]["country"]


def test_relations_sharing_a_local_name_are_qualified_even_when_only_one_is_present(
    world,
) -> None:
    subgraph = focus_subgraph(world.sources[0].handle, france(1))
    relations = {p.value.removeprefix(ONTOP): name for p, name in subgraph.names.relations.items()}
    assert NamedNode(ONTOP + "city#name") not in subgraph.names.relations
    assert relations["country#name"] == "country_name"
    assert relations["country#continent"] == "continent"
    assert relations["city#ref-countrycode"] == "city_ref_countrycode"
