"""The seed memory: enough, varied, loaded offline on first use, and reproducible."""

from collections import Counter

import pytest

from memory.fingerprints import schema_fingerprint
from memory.seed import SEED_DATASET, examples_dir, load_seed_demonstrations
from memory.store import DemonstrationStore
from memory.verification import open_workspace, structure_schema, to_focus, verify_code

SEEDS = load_seed_demonstrations()


def test_there_are_at_least_sixty_seeds_covering_every_kind():
    assert len(SEEDS) >= 60
    kinds = Counter(seed.kind for seed in SEEDS)
    assert set(kinds) == {"table", "database", "kg"}
    representations = Counter(seed.representation for seed in SEEDS)
    assert representations["pandas"] > representations["sql"] > 0
    assert representations["networkx"] > 0
    assert len({seed.id for seed in SEEDS}) == len(SEEDS)
    assert all(seed.reasoning and seed.answer and seed.dataset == SEED_DATASET for seed in SEEDS)


def test_the_seed_is_loaded_on_first_use_and_only_once(settings):
    first = DemonstrationStore.open(settings)
    assert first.count() == len(SEEDS)
    assert DemonstrationStore.open(settings).count() == len(SEEDS)


@pytest.mark.parametrize("seed", SEEDS, ids=[seed.id[:8] for seed in SEEDS])
def test_every_seed_reproduces_its_stored_answer_on_its_stored_schema(seed):
    workspace = open_workspace(seed.sources, examples_dir())
    focus = to_focus(seed.focus, seed.question)
    schema = structure_schema(workspace, seed.representation, focus)
    assert schema_fingerprint(schema) == seed.schema_fingerprint
    outcome = verify_code(seed.code, workspace, seed.representation, focus, expected=seed.answer)
    assert outcome.problem is None
