"""Retrieval modes, filters and the program cache."""

import pytest

from memory.embeddings import DEFAULT_EMBEDDING, get_embedding
from memory.program_cache import find_cached_program
from memory.retrieval import retrieve_demonstrations, search_demonstrations
from plugins.errors import BadInputError
from tests.memory.conftest import make_demo

KG_COUNT = make_demo("How many films did Federico Fellini direct?", "return 3", kind="kg")
TABLE_COUNT = make_demo("How many cities are in India?", "result = 2", kind="table")
TABLE_MAX = make_demo("Which city has the largest area?", "result = 'x'", kind="table")
DB_JOIN = make_demo("Which customers bought a jazz album?", "result = 'y'", kind="database")


def test_a_plain_paraphrase_is_found_with_the_default_embedding(settings):
    """Issue 9, item 5: hashed n-grams did not find this paraphrase in the top 5.
    A real Chroma store with the seed (67 demonstrations) and the default embedding."""
    from memory.store import DemonstrationStore

    assert settings.embedding is None
    store = DemonstrationStore.open(settings)
    assert store.embedding.name == get_embedding(DEFAULT_EMBEDDING).name
    stored = make_demo("How many stadiums are recorded in the database?", "result = 9")
    store.add(stored)
    hits = search_demonstrations(store, "what is the number of stadiums?", 5)
    assert stored.id in [hit.demonstration.id for hit in hits]


@pytest.fixture
def filled(store):
    store.add_many([KG_COUNT, TABLE_COUNT, TABLE_MAX, DB_JOIN])
    return store


def test_cross_mode_borrows_from_other_kinds(filled):
    hits = search_demonstrations(filled, "How many albums did Aino Virtanen release?", 2)
    assert [h.demonstration.id for h in hits][:2] == [KG_COUNT.id, TABLE_COUNT.id]
    assert hits[0].score >= hits[1].score


def test_same_mode_keeps_the_question_kind(filled):
    hits = search_demonstrations(
        filled, "How many albums did Aino Virtanen release?", 3, kind="table", mode="same"
    )
    assert {h.demonstration.kind for h in hits} == {"table"}
    assert len(hits) == 2


def test_same_mode_needs_a_kind(filled):
    with pytest.raises(BadInputError, match="kind"):
        search_demonstrations(filled, "Q?", 3, mode="same")


def test_random_mode_is_reproducible_per_question(filled):
    first = search_demonstrations(filled, "Anything at all?", 2, mode="random")
    again = search_demonstrations(filled, "Anything at all?", 2, mode="random")
    assert [h.demonstration.id for h in first] == [h.demonstration.id for h in again]
    assert len(first) == 2


def test_negative_and_stale_demonstrations_are_never_returned(store):
    failed = make_demo("How many cities are in India?", "result = broken", negative=True)
    stale = make_demo("How many cities are in India?", "result = old", stale=True)
    store.add_many([failed, stale, TABLE_MAX])
    for mode in ("cross", "random"):
        hits = search_demonstrations(store, "How many cities are in India?", 5, mode=mode)
        assert [h.demonstration.id for h in hits] == [TABLE_MAX.id]


def test_filters_beyond_the_overfetched_neighbourhood_fall_back_to_chroma(store):
    store.add_many([make_demo(f"How many rows are in table {i}?", f"r = {i}") for i in range(120)])
    rare = make_demo("Which films won an award?", "return 1", kind="kg", representation="networkx")
    store.add(rare)
    hits = search_demonstrations(
        store, "How many rows are in table 7?", 3, representation="networkx"
    )
    assert [h.demonstration.id for h in hits] == [rare.id]


def test_minimum_verification_filter(store):
    store.add_many(
        [make_demo("Q one?", verified="unverified"), make_demo("Q two?", verified="gold")]
    )
    hits = search_demonstrations(store, "Q one?", 2, min_verified="approved")
    assert [h.demonstration.question for h in hits] == ["Q two?"]


def test_retrieve_demonstrations_uses_the_configured_store_with_its_seed():
    hits = retrieve_demonstrations("How many tracks are longer than five minutes?", k=3)
    assert len(hits) == 3
    assert all(h.demonstration.dataset == "pandora-examples" for h in hits)


def test_program_cache_needs_the_same_question_and_schema_and_a_verification(store):
    store.add_many([TABLE_COUNT, make_demo("Unchecked?", verified="unverified")])
    found = find_cached_program(store, "how many cities are in india", "fp-1")
    assert found is not None and found.id == TABLE_COUNT.id
    assert find_cached_program(store, "How many cities are in India?", "fp-2") is None
    assert find_cached_program(store, "How many cities are in Peru?", "fp-1") is None
    assert find_cached_program(store, "Unchecked?", "fp-1") is None
    assert find_cached_program(store, "How many cities are in India?", "fp-1", "sql") is None


def test_program_cache_skips_stale_demonstrations(store):
    store.add(TABLE_COUNT.model_copy(update={"stale": True}))
    assert find_cached_program(store, TABLE_COUNT.question, "fp-1") is None


def test_program_cache_finds_a_match_among_many_identical_masked_questions(store):
    # Masking makes these identical vectors: the cache must still find the exact one.
    names = [f"Person{chr(65 + i)} Name{chr(65 + i)}" for i in range(25)]
    store.add_many(
        [make_demo(f"Who directed films with {n}?", f"r = {i}") for i, n in enumerate(names)]
    )
    found = find_cached_program(store, f"Who directed films with {names[3]}?", "fp-1")
    assert found is not None and found.code == "r = 3"
