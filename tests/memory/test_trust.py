"""Issue 25: who may write which verification, and what the program cache serves.

Real Chroma stores under tmp_path, the real executor, `pandora` subprocesses;
the LLM, where one is needed, is a fake OpenAI-compatible server.
"""

from __future__ import annotations

import json
import shutil
import time

import pytest
from pydantic import ValidationError

from memory import find_cached_program
from memory.store import record_metadata
from tests.conftest import EXAMPLES, run_pandora
from tests.memory.conftest import ask_with_fake_llm, make_demo

MUSIC = str(EXAMPLES / "music.sqlite")
ALBUMS = "How many albums are there?"


def test_nothing_an_mcp_client_or_a_file_adds_is_gold_or_approved():
    for origin in ("mcp", "import"):
        for claimed in ("gold", "approved"):
            assert make_demo("Q?", verified=claimed, origin=origin).verified == "executed"
    assert make_demo("Q?", verified="gold", origin="cli").verified == "gold"
    assert make_demo("Q?", verified="gold", origin="build").verified == "gold"
    with pytest.raises(ValidationError, match="origin"):
        make_demo("Q?", origin="someone")


def test_records_stored_before_origins_read_as_import_and_are_never_served(store):
    legacy = make_demo(ALBUMS, "result = 1234", verified="gold", answer=[[1234]])
    document = json.loads(legacy.to_json_line())
    del document["origin"]
    metadata = record_metadata(legacy)
    del metadata["origin"]
    vector = store.embed_questions([ALBUMS])
    store.retrievable.upsert(
        ids=[legacy.id], embeddings=vector, documents=[json.dumps(document)], metadatas=[metadata]
    )
    stored = store.get(legacy.id)
    assert (stored.origin, stored.verified) == ("import", "executed")
    assert find_cached_program(store, ALBUMS, "fp-1") is None


def test_a_users_copy_replaces_a_clients_copy_of_the_same_program(store):
    store.add(make_demo(ALBUMS, origin="mcp"))
    outcome = store.add(make_demo(ALBUMS, origin="cli"))
    assert outcome.added and store.get(outcome.id).origin == "cli"
    assert not store.add(make_demo(ALBUMS, origin="mcp")).added
    assert store.get(outcome.id).origin == "cli"


def test_the_cache_serves_the_users_and_a_builds_gold_programs_only(store):
    store.add_many(
        [
            make_demo("From a client?", origin="mcp"),
            make_demo("From a file?", origin="import"),
            make_demo("From the seed?", origin="build", verified="approved"),
            make_demo("From a build?", origin="build", verified="gold"),
            make_demo("From me?", origin="cli"),
        ]
    )
    questions = ["From a client?", "From a file?", "From the seed?", "From a build?", "From me?"]
    served = {q for q in questions if find_cached_program(store, q, "fp-1") is not None}
    assert served == {"From a build?", "From me?"}


def test_a_look_alike_of_the_users_question_finds_the_users_program(store):
    mine = make_demo("How many customers are there?", origin="cli")
    store.add(mine)
    found = find_cached_program(store, "ＨＯＷ  many   CUSTOMERS are there!!", "fp-1")
    assert found is not None and found.id == mine.id


def test_every_entry_point_refuses_text_over_the_caps(store, tmp_path):
    from memory.limits import DemonstrationTooLarge

    with pytest.raises(DemonstrationTooLarge, match="reasoning is 3,000,000 characters"):
        store.add(make_demo(ALBUMS, reasoning="x" * 3_000_000))
    assert store.count() == 0
    code = tmp_path / "count.py"
    code.write_text("result = len(album)\n")
    added = run_pandora(
        "memory", "add", "--question", ALBUMS, "--code", str(code), "--source", MUSIC,
        "--reasoning", "x" * 100_000,
    )  # fmt: skip
    assert added.exit_code == 2
    assert added.stderr.strip().count("\n") == 0
    assert "reasoning is 100,000 characters; the memory keeps at most 4,000" in added.stderr


def test_a_program_that_answers_differently_later_is_not_served_and_verify_flags_it(tmp_path):
    """Checked once while the clock was before T, it returns 999 after T."""
    music = tmp_path / "music.sqlite"
    shutil.copy(MUSIC, music)
    deadline = time.time() + 30
    code = tmp_path / "bomb.py"
    code.write_text(f"import time\nresult = len(album) if time.time() < {deadline} else 999\n")
    added = run_pandora(
        "memory", "add", "--question", ALBUMS, "--code", str(code),
        "--source", str(music), "--json",
    )  # fmt: skip
    assert added.exit_code == 0, added.stderr
    if added.json["answer"] != [[8]]:
        pytest.skip("the machine took over 30 s to add the program: T passed before its check")
    time.sleep(max(0.0, deadline - time.time() + 0.5))
    run, llm_calls = ask_with_fake_llm(ALBUMS, str(music), "result = len(album)")
    assert run.exit_code == 0, run.stderr
    assert run.json["answer"] == [[8]]
    assert llm_calls == 1 and run.json["program_cache"] is None
    verified = run_pandora("memory", "verify", "--source", str(music), "--json")
    assert verified.exit_code == 0, verified.stderr
    assert verified.json["stale"] == [added.json["id"]]
