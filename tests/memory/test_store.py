"""The Chroma store: dedup, held-back records, embedding identity, reindex, damage."""

import json
import sqlite3
from pathlib import Path

import chromadb
import pytest

from memory.backend import MemoryStoreError, chroma_settings
from memory.embeddings import HashedNgramEmbedding, get_embedding
from memory.settings import MemorySettings
from memory.store import (
    FORMAT_VERSION,
    REINDEX_SUFFIX,
    RETRIEVABLE,
    DemonstrationStore,
    EmbeddingMismatchError,
)
from tests.memory.conftest import make_demo


def test_add_then_get_and_count(store):
    demo = make_demo("How many cities are in Japan?")
    outcome = store.add(demo)
    assert outcome.added and outcome.id == demo.id
    assert store.get(demo.id) == demo
    assert store.count() == 1


def test_adding_the_same_demonstration_twice_stores_it_once(store):
    store.add(make_demo("How many cities?", verified="executed"))
    again = store.add(make_demo("how many cities", verified="unverified"))
    assert not again.added
    assert again.verified == "executed"
    assert store.count() == 1


def test_a_better_verified_copy_replaces_a_weaker_one(store):
    store.add(make_demo("How many cities?", verified="executed"))
    outcome = store.add(make_demo("How many cities?", verified="gold"))
    assert outcome.added and outcome.verified == "gold"
    assert store.count() == 1


def test_bulk_add_counts_new_replaced_and_duplicates(store):
    demos = [make_demo(f"Question number {i}?") for i in range(5)]
    first = store.add_many([*demos, demos[0]], batch_size=2)
    assert (first.added, first.replaced, first.duplicates) == (5, 0, 1)
    second = store.add_many([*demos[:2], make_demo("Question number 0?", verified="gold")])
    assert (second.added, second.replaced, second.duplicates) == (0, 1, 2)


def test_negative_and_stale_records_are_held_back(store):
    store.add_many(
        [
            make_demo("Good question?"),
            make_demo("Failed attempt?", negative=True, error="KeyError"),
            make_demo("Old schema?", stale=True),
        ]
    )
    assert store.count() == 3
    assert store.retrievable_count() == 1
    stats = store.stats()
    assert (stats.count, stats.negative, stats.stale) == (3, 1, 1)


def test_update_moves_a_record_between_retrievable_and_held_back(store):
    demo = make_demo("Will go stale?")
    store.add(demo)
    store.update(demo.model_copy(update={"stale": True}))
    assert store.retrievable_count() == 0 and store.count() == 1
    store.update(demo)
    assert store.retrievable_count() == 1 and store.count() == 1


def test_find_filters_on_metadata(store):
    store.add_many([make_demo("A?", kind="kg"), make_demo("B?", kind="table", dataset="x")])
    assert [d.question for d in store.find({"kind": "kg"})] == ["A?"]
    assert [d.question for d in store.find({"dataset": "x"})] == ["B?"]


def test_stats_report_counts_and_embedding(store):
    store.add_many([make_demo("A?", kind="kg", verified="gold"), make_demo("B?")])
    stats = store.stats()
    assert stats.by_kind == {"kg": 1, "table": 1}
    assert stats.by_verified == {"executed": 1, "gold": 1}
    assert stats.embedding == store.embedding_identity == get_embedding(None).name


def test_another_embedding_is_refused_until_reindex(settings, store):
    store.add(make_demo("How many cities?"))
    other = DemonstrationStore.open(settings, embedding=HashedNgramEmbedding(128), load_seed=False)
    with pytest.raises(EmbeddingMismatchError, match="pandora memory reindex"):
        other.add(make_demo("Another?"))
    with pytest.raises(EmbeddingMismatchError):
        other.nearest(other.embed_questions(["q"])[0], 1)
    assert other.reindex() == 1
    assert other.recorded_embedding == "hashed-ngrams-v1-128"
    hits = other.nearest(other.embed_questions(["How many cities?"])[0], 1)
    assert hits[0].demonstration.question == "How many cities?"
    assert len(hits[0].demonstration.id) == 32
    reopened = DemonstrationStore.open(settings, load_seed=False)
    assert not reopened.embedding_matches()


def test_the_mismatch_error_says_how_to_move_the_store_or_keep_it(memory_home):
    """A store of the previous default (hashed, masked) opened with today's default."""
    previous = MemorySettings(home=memory_home, embedding="hashed", masking=True)
    DemonstrationStore.open(previous, load_seed=False).add(make_demo("How many cities?"))
    current = DemonstrationStore.open(MemorySettings(home=memory_home))
    assert current.count() == 1  # the seed is not added with the wrong vectors
    with pytest.raises(EmbeddingMismatchError) as raised:
        current.nearest(current.embed_questions(["q"], query=True)[0], 1)
    message = str(raised.value)
    assert "\n" not in message and "'hashed-ngrams-v1-512+masked'" in message
    assert "run `pandora memory reindex`" in message
    assert "PANDORA_EMBEDDING=hashed PANDORA_MEMORY_MASKING=1" in message


def test_masking_is_part_of_the_embedding_identity(memory_home, store):
    masked = MemorySettings(home=memory_home, masking=not store.masking)
    with pytest.raises(EmbeddingMismatchError):
        DemonstrationStore.open(masked, load_seed=False).add(make_demo("Q?"))


def test_a_reindex_interrupted_after_copying_is_finished_on_open(settings, store):
    store.add_many([make_demo("A?"), make_demo("B?", negative=True)])
    other = DemonstrationStore.open(settings, embedding=HashedNgramEmbedding(64), load_seed=False)
    finish = other._finish_interrupted_reindex
    other._finish_interrupted_reindex = lambda: None  # the process dies before swapping
    other.reindex()
    other._finish_interrupted_reindex = finish
    reopened = DemonstrationStore.open(settings, load_seed=False)
    assert reopened.recorded_embedding == "hashed-ngrams-v1-64"
    assert reopened.count() == 2 and reopened.retrievable_count() == 1
    names = {c.name for c in reopened.client.list_collections()}
    assert not any(name.endswith(REINDEX_SUFFIX) for name in names)


def test_an_unfinished_reindex_copy_is_ignored(settings, store):
    store.add(make_demo("A?"))
    store.client.create_collection(RETRIEVABLE + REINDEX_SUFFIX, metadata={"x": 1})
    reopened = DemonstrationStore.open(settings, load_seed=False)
    assert reopened.recorded_embedding == store.embedding_identity
    assert reopened.count() == 1


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_damaged_store_is_reported_and_left_unchanged(settings):
    folder = settings.store_path
    folder.mkdir(parents=True)
    (folder / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    before = _snapshot(folder)
    with pytest.raises(MemoryStoreError, match="damaged"):
        DemonstrationStore.open(settings)
    assert _snapshot(folder) == before


def test_a_store_from_a_newer_pandora_is_refused_and_left_unchanged(settings, store):
    store.add(make_demo("A?"))
    collection = store.client.get_collection(RETRIEVABLE)
    collection.modify(metadata={**collection.metadata, "pandora_format": FORMAT_VERSION + 1})
    database = settings.store_path / "chroma.sqlite3"
    with sqlite3.connect(database) as connection:
        rows_before = connection.execute("SELECT COUNT(*) FROM embeddings").fetchone()
    with pytest.raises(MemoryStoreError, match="newer Pandora"):
        DemonstrationStore.open(settings)
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT COUNT(*) FROM embeddings").fetchone() == rows_before


def test_a_collection_not_written_by_pandora_is_refused(settings):
    settings.store_path.mkdir(parents=True)
    client = chromadb.PersistentClient(str(settings.store_path), settings=chroma_settings())
    client.create_collection(RETRIEVABLE, metadata={"owner": "someone else"})
    with pytest.raises(MemoryStoreError, match="not written by Pandora"):
        DemonstrationStore.open(settings)


def test_a_file_where_the_store_folder_should_be_is_refused(settings):
    settings.home.mkdir(parents=True)
    settings.store_path.write_text(json.dumps({"not": "a store"}))
    with pytest.raises(MemoryStoreError, match="not a folder"):
        DemonstrationStore.open(settings)
