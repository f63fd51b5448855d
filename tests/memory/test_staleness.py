"""Schema changes flag demonstrations stale, or re-verify them when they still pass."""

import shutil

import pytest

from memory.program_cache import find_cached_program
from memory.retrieval import search_demonstrations
from memory.staleness import recheck_demonstrations
from memory.verification import build_demonstration
from tests.conftest import EXAMPLES

QUESTION = "How many cities in the table are in India?"
CODE = "result = int((cities['Country'] == 'India').sum())"


@pytest.fixture
def cities_copy(tmp_path):
    path = tmp_path / "cities.csv"
    shutil.copy(EXAMPLES / "cities.csv", path)
    return path


@pytest.fixture
def stored(store, cities_copy):
    demo, outcome = build_demonstration(
        question=QUESTION,
        code=CODE,
        locations=[str(cities_copy)],
        representation="pandas",
        origin="cli",
    )
    assert outcome.passed
    store.add(demo)
    return demo


def _rewrite(path, old, new):
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_an_unchanged_schema_keeps_the_demonstration(store, stored):
    report = recheck_demonstrations(store)
    assert report.unchanged == [stored.id]


def test_a_breaking_schema_change_flags_it_stale_and_excludes_it(store, stored, cities_copy):
    _rewrite(cities_copy, "City,Country,", "City,Nation,")
    report = recheck_demonstrations(store)
    assert report.stale == [stored.id]
    assert store.get(stored.id).stale
    assert search_demonstrations(store, QUESTION, 5) == []
    assert find_cached_program(store, QUESTION, stored.schema_fingerprint) is None
    _rewrite(cities_copy, "City,Nation,", "City,Country,")
    assert recheck_demonstrations(store).restored == [stored.id]
    assert not store.get(stored.id).stale


def test_a_compatible_schema_change_is_reverified(store, stored, cities_copy):
    _rewrite(cities_copy, ",Notes\n", ",Notes,Extra\n")
    report = recheck_demonstrations(store)
    assert report.reverified == [stored.id]
    updated = store.get(stored.id)
    assert not updated.stale and updated.schema_fingerprint != stored.schema_fingerprint
    assert "Extra" in updated.schema_


def test_without_rerun_a_changed_schema_is_flagged_stale(store, stored, cities_copy):
    _rewrite(cities_copy, ",Notes\n", ",Notes,Extra\n")
    assert recheck_demonstrations(store, reverify=False).stale == [stored.id]


def test_missing_sources_are_reported_not_flagged(store, stored, cities_copy):
    cities_copy.unlink()
    report = recheck_demonstrations(store)
    assert list(report.unavailable) == [stored.id]
    assert not store.get(stored.id).stale


def test_only_the_named_sources_are_rechecked(store, stored, cities_copy, tmp_path):
    _rewrite(cities_copy, "City,Country,", "City,Nation,")
    report = recheck_demonstrations(store, only_sources=[str(tmp_path / "other.csv")])
    assert report.stale == [] and report.unchanged == []
