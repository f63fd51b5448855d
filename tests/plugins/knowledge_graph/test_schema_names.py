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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
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


LOCAL_NAMES = ["name", "ref-owner", "code"]
CLASSES = ["country", "city", "owner"]


@st.composite
def spider_style_graphs(draw) -> str:
    """Turtle for a random KG of Spider4SPARQL shape: predicates sharing
    local names (`city#name`, `country#name`), used by any class, so one
    type's instances may have both; literal and entity objects; a few
    untyped subjects."""
    entity_count = draw(st.integers(3, 9))
    lines = []
    for index in range(entity_count):
        kind = draw(st.sampled_from([*CLASSES, None]))
        owner = kind or "thing"
        subject = f"<{ONTOP}{owner}/id={index}>"
        if kind:
            lines.append(f"{subject} a <{ONTOP}{kind}> .")
        for local in draw(st.lists(st.sampled_from(LOCAL_NAMES), min_size=1, max_size=4)):
            if local.startswith("ref-"):
                target = draw(st.integers(0, entity_count - 1))
                obj = f"<{ONTOP}{draw(st.sampled_from([*CLASSES, 'thing']))}/id={target}>"
            else:
                obj = f'"{local} {draw(st.integers(0, 3))}"'
            namespace = draw(st.sampled_from([owner, *CLASSES]))
            lines.append(f"{subject} <{ONTOP}{namespace}#{local}> {obj} .")
    return "\n".join(lines) + "\n"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(turtle=spider_style_graphs(), topic=st.integers(0, 8))
def test_every_field_keeps_its_name_at_every_hop_count(tmp_path, turtle, topic) -> None:
    """Property: over random Spider-style graphs, a (BOX, predicate) pair has
    one field name at 1, 2 and 3 hops, and the fields of a BOX are distinct."""
    path = tmp_path / "random.ttl"
    path.write_text(turtle)
    kg = load_source(str(path)).handle
    subjects = sorted({line.split(" ", 1)[0] for line in turtle.splitlines()})
    focus_entity = subjects[topic % len(subjects)].strip("<>")
    seen: dict[tuple[str, NamedNode], str] = {}
    for hops in (1, 2, 3):
        names = focus_subgraph(kg, Focus(entities=(focus_entity,), hops=hops)).names
        for key, field in names.fields.items():
            assert seen.setdefault(key, field) == field
        for box in {box for box, _ in names.fields}:
            fields = [field for (owner, _), field in names.fields.items() if owner == box]
            assert len(set(fields)) == len(fields) and box not in fields
