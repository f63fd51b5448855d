"""The KG overview `inspect` shows without a focus: types, counts, examples, predicates."""

from __future__ import annotations

import pytest

from plugins import load_source
from plugins.errors import BadInputError
from plugins.knowledge_graph.overview import describe_knowledge_graph

from .conftest import FILMS


def test_overview_lists_types_by_count_with_named_examples() -> None:
    overview = describe_knowledge_graph(load_source(str(FILMS)), examples_per_type=2)
    counts = {kind.name: kind.count for kind in overview.types}
    assert counts == {"person": 18, "film": 9, "award_win": 5, "country": 5, "award": 4}
    assert [kind.name for kind in overview.types][:2] == ["person", "film"]
    person = overview.types[0]
    assert person.iri == "http://example.org/films/Person"
    assert person.examples == ["Al Pacino", "Alfred Hitchcock"]
    assert person.fields == ["birth_date", "nationality", "spouse"]
    award_win = next(kind for kind in overview.types if kind.name == "award_win")
    assert all(example.startswith("award_win ") for example in award_win.examples)
    predicates = {predicate.name: predicate.count for predicate in overview.predicates}
    assert predicates["directed_by"] == 8
    assert overview.triples == sum(predicates.values()) == 248


def test_an_endpoint_gives_the_same_overview_as_the_file(rdflib_graph, sparql_endpoint) -> None:
    """A local SPARQL endpoint (rdflib behind http.server on 127.0.0.1). Blank
    nodes cannot be named in a query, so award wins (blank) show other ids."""
    from_file = describe_knowledge_graph(load_source(str(FILMS)))
    from_endpoint = describe_knowledge_graph(load_source(sparql_endpoint(rdflib_graph("films"))))
    without_blank_examples = [
        kind.model_dump(exclude={"examples"} if kind.name == "award_win" else set())
        for kind in from_endpoint.types
    ]
    assert without_blank_examples == [
        kind.model_dump(exclude={"examples"} if kind.name == "award_win" else set())
        for kind in from_file.types
    ]
    assert from_endpoint.predicates == from_file.predicates


def test_overview_of_something_else_is_bad_input(tmp_path) -> None:
    table = tmp_path / "t.csv"
    table.write_text("a,b\n1,2\n")
    with pytest.raises(BadInputError, match="not a knowledge graph"):
        describe_knowledge_graph(load_source(str(table)))
