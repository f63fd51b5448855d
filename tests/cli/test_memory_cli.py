"""`pandora memory ...`: the DESIGN.md shapes, exit codes, and a store never harmed by failures."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from cli.main import main
from cli.memory import parse_answer
from memory.embeddings import get_embedding
from memory.seed import load_seed_demonstrations
from tests.conftest import EXAMPLES

SEED_COUNT = len(load_seed_demonstrations())
CITIES = str(EXAMPLES / "cities.csv")
INDIA_CODE = "result = int((cities['Country'] == 'India').sum())\n"


def memory(*arguments: str, stdin: str | None = None):
    """Run `pandora memory ARGUMENTS --json` in-process; returns (exit code, JSON)."""
    result = CliRunner().invoke(main, ["memory", *arguments, "--json"], input=stdin)
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else None


def add_india(*extra: str):
    return memory(
        "add", "--question", "How many cities are in India?", "--code", "-",
        "--source", CITIES, *extra, stdin=INDIA_CODE,
    )  # fmt: skip


def count() -> int:
    return memory("stats")[1]["count"]


def test_add_verifies_by_executing_and_reports_the_contract_shape():
    code, payload = add_india()
    assert code == 0
    assert payload["verified"] == "executed" and payload["answer"] == [[2]]
    assert len(payload["id"]) == 32 and payload["added"] is True
    assert count() == SEED_COUNT + 1


def test_add_with_the_right_answer_is_gold_and_a_duplicate_is_not_added_twice():
    assert add_india("--answer", "2")[1]["verified"] == "gold"
    code, payload = add_india()
    assert code == 0 and payload["added"] is False and payload["verified"] == "gold"
    assert count() == SEED_COUNT + 1


def test_add_refuses_a_wrong_answer_or_failing_code_and_leaves_the_store_alone():
    count_before = count()
    code, payload = add_india("--answer", '[["3"]]')
    assert code == 1 and "differs" in payload["error"]["message"]
    code, payload = memory(
        "add", "--question", "Broken?", "--code", "-", "--source", CITIES,
        stdin="result = cities['Nope']",
    )  # fmt: skip
    assert code == 1 and "KeyError" in payload["error"]["message"]
    assert count() == count_before


def test_add_unverified_keeps_a_failing_demonstration():
    code, payload = memory(
        "add", "--question", "Broken?", "--code", "-", "--source", CITIES, "--unverified",
        stdin="result = cities['Nope']",
    )  # fmt: skip
    assert code == 0 and payload["verified"] == "unverified" and "KeyError" in payload["problem"]


def test_add_with_bad_input_exits_2():
    code, payload = memory(
        "add", "--question", "Q", "--code", "-", "--source", "nope.csv", stdin="x"
    )
    assert code == 2 and "nope.csv" in payload["error"]["message"]
    code, payload = add_india("--answer", "{not json")
    assert code == 2 and "JSON" in payload["error"]["message"]


def test_search_returns_the_contract_fields():
    code, payload = memory("search", "How many tracks does each album have?", "-k", "4")
    assert code == 0 and len(payload["demonstrations"]) == 4
    first = payload["demonstrations"][0]
    assert set(first) == {"id", "question", "kind", "representation", "code", "score", "verified"}
    scores = [d["score"] for d in payload["demonstrations"]]
    assert scores == sorted(scores, reverse=True)


def test_search_same_mode_keeps_the_kind_and_requires_it():
    code, payload = memory("search", "Who directed it?", "--kind", "kg", "--mode", "same")
    assert code == 0 and {d["kind"] for d in payload["demonstrations"]} == {"kg"}
    assert memory("search", "Who directed it?", "--mode", "same")[0] == 2


def test_list_and_stats():
    code, payload = memory("list", "--kind", "database", "--representation", "sql")
    assert code == 0 and payload["count"] == 6
    assert all(d["representation"] == "sql" for d in payload["demonstrations"])
    stats = memory("stats")[1]
    assert stats["count"] == SEED_COUNT
    assert set(stats["by_kind"]) == {"table", "database", "kg"}
    assert stats["embedding"] == get_embedding(None).name


def test_export_then_import_into_a_new_home_round_trips(tmp_path, monkeypatch):
    add_india()
    exported = tmp_path / "memory.jsonl"
    code, payload = memory("export", str(exported))
    assert code == 0 and payload["exported"] == SEED_COUNT + 1
    assert len(exported.read_text(encoding="utf-8").splitlines()) == SEED_COUNT + 1
    monkeypatch.setenv("PANDORA_HOME", str(tmp_path / "other-home"))
    code, payload = memory("import", str(exported))
    assert code == 0 and payload["imported"] == 1 and payload["duplicates"] == SEED_COUNT
    assert count() == SEED_COUNT + 1


def _jsonl_with_a_bad_line(tmp_path: Path) -> Path:
    good = load_seed_demonstrations()[0].model_copy(update={"question": "A new question?"})
    path = tmp_path / "mixed.jsonl"
    bad = json.dumps({"question": "No code?", "kind": "table", "representation": "pandas"})
    path.write_text(good.to_json_line() + "\n" + bad + "\n{broken\n", encoding="utf-8")
    return path


def test_import_stops_on_an_invalid_line_by_default_and_imports_nothing(tmp_path):
    path = _jsonl_with_a_bad_line(tmp_path)
    code, payload = memory("import", str(path))
    assert code == 2 and f"{path}:2:" in payload["error"]["message"]
    assert "code" in payload["error"]["message"]
    assert count() == SEED_COUNT


def test_import_can_skip_invalid_lines_and_reports_their_numbers(tmp_path):
    code, payload = memory("import", str(_jsonl_with_a_bad_line(tmp_path)), "--on-error", "skip")
    assert code == 0 and payload["imported"] == 1
    assert [item["line"] for item in payload["skipped"]] == [2, 3]
    assert count() == SEED_COUNT + 1


def test_another_embedding_needs_reindex(monkeypatch):
    assert count() == SEED_COUNT
    monkeypatch.setenv("PANDORA_EMBEDDING", "hashed:256")
    code, payload = memory("search", "How many albums?")
    assert code == 2 and "reindex" in payload["error"]["message"]
    code, payload = memory("reindex")
    assert code == 0 and payload["reindexed"] == SEED_COUNT
    assert payload["embedding"] == "hashed-ngrams-v1-256"
    assert payload["previous"] == get_embedding(None).name
    code, payload = memory("search", "How many albums?", "-k", "1")
    assert code == 0 and len(payload["demonstrations"]) == 1


def test_a_damaged_store_exits_2_and_is_not_overwritten(memory_home, tmp_path):
    database = memory_home / "memory" / "chroma.sqlite3"
    database.parent.mkdir(parents=True)
    database.write_bytes(b"garbage" * 1000)
    valid = tmp_path / "valid.jsonl"
    valid.write_text(load_seed_demonstrations()[0].to_json_line() + "\n", encoding="utf-8")
    for command in (["stats"], ["search", "q"], ["import", str(valid)], ["reindex"]):
        code, payload = memory(*command)
        assert code == 2 and "damaged" in payload["error"]["message"]
    assert database.read_bytes() == b"garbage" * 1000


def test_verify_reports_the_seed_unchanged():
    code, payload = memory("verify")
    assert code == 0 and payload["unchanged"] == SEED_COUNT and payload["stale"] == []


def test_the_console_script_prints_one_json_object(pandora, memory_home):
    run = pandora("memory", "stats", "--json", env={**os.environ})
    assert run.exit_code == 0 and run.json["count"] == SEED_COUNT


def test_every_option_has_help_text():
    """Issue 9, item 7: `memory search -k/--kind/--mode` had none."""
    from cli.memory import memory_group

    for name, command in memory_group.commands.items():
        if name == "build":
            continue  # cli/memory_build.py, the learning pipeline's own module and tests
        for parameter in command.params:
            if isinstance(parameter, click.Option):
                assert parameter.help, f"memory {name} {parameter.opts[0]}"


def test_errors_use_the_common_prefix(memory_home, tmp_path):
    result = CliRunner().invoke(main, ["memory", "import", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"pandora: BadInput: {tmp_path / 'missing.jsonl'}: no such file"
    ]


def test_an_answer_given_as_json_keeps_its_types():
    assert parse_answer("3") == [[3]]
    assert parse_answer('["Lagos", null]') == [["Lagos"], [None]]
    assert parse_answer('[["Lagos", 15388000]]') == [["Lagos", 15388000]]


MUSIC = str(EXAMPLES / "music.sqlite")
ALBUMS = "How many albums are there?"


def _forged(tmp_path: Path, code: str, answer: list, **fields: object) -> Path:
    """A JSONL file with one record claiming what it likes (issue 25)."""
    from memory.fingerprints import schema_fingerprint
    from memory.verification import open_workspace, structure_schema

    schema = structure_schema(open_workspace([MUSIC]), "pandas", None)
    record = {
        "question": ALBUMS, "kind": "database", "representation": "pandas",
        "schema_fingerprint": schema_fingerprint(schema), "code": code, "answer": answer,
        "verified": "gold", "created_at": "2999-01-01T00:00:00Z",
        "sources": [MUSIC], **fields,
    }  # fmt: skip
    path = tmp_path / "forged.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("claimed_origin", [{}, {"origin": "cli"}])
def test_an_imported_record_keeps_only_what_its_rerun_establishes(tmp_path, claimed_origin):
    from tests.memory.conftest import ask_with_fake_llm

    forged = _forged(tmp_path, "result = [[1234]]", [[1234]], **claimed_origin)
    code, payload = memory("import", str(forged))
    assert code == 0 and payload["imported"] == 1
    run, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)")
    assert run.json["answer"] == [[8]] and llm_calls == 1
    assert run.json["program_cache"] is None
    listed = memory("list", "--dataset", "")[1]["demonstrations"]
    forged = [d for d in listed if d["question"] == ALBUMS]
    assert [(d["origin"], d["verified"]) for d in forged] == [("import", "executed")]
    memory("export", str(tmp_path / "out.jsonl"))
    exported = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    [stored] = [record for record in exported if record["question"] == ALBUMS]
    assert not stored["created_at"].startswith("2999")


def test_import_refuses_a_record_its_rerun_does_not_establish(tmp_path):
    path = _forged(tmp_path, "result = len(album)", [[1234]])
    code, payload = memory("import", str(path))
    assert code == 2 and f"{path}:1: not re-established" in payload["error"]["message"]
    assert "expected [[1234]]" in payload["error"]["message"]
    assert count() == SEED_COUNT


def test_import_refuses_a_record_over_a_size_cap(tmp_path):
    path = _forged(tmp_path, "result = len(album)", [[8]], reasoning="x" * 3_000_000)
    code, payload = memory("import", str(path))
    assert code == 2
    assert (
        "reasoning is 3,000,000 characters; the memory keeps at most 4,000"
        in (payload["error"]["message"])
    )
    assert count() == SEED_COUNT


def test_remove_deletes_one_demonstration_and_an_unknown_id_exits_2():
    added = add_india()[1]
    code, payload = memory("remove", added["id"])
    assert code == 0 and payload == {"removed": added["id"]}
    assert count() == SEED_COUNT
    result = CliRunner().invoke(main, ["memory", "remove", added["id"]])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"pandora: BadInput: no demonstration has id '{added['id']}' (see `memory list`)"
    ]


def test_ask_save_stores_the_users_approved_program_which_the_cache_then_serves():
    from tests.memory.conftest import ask_with_fake_llm

    first, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = len(album)", "--save")
    assert first.exit_code == 0, first.stderr
    assert llm_calls == 1 and first.json["answer"] == [[8]]
    saved = [d for d in memory("list", "--verified", "approved")[1]["demonstrations"]]
    mine = [d for d in saved if d["question"] == ALBUMS]
    assert [(d["origin"], d["verified"]) for d in mine] == [("cli", "approved")]
    assert f"pandora: saved as {mine[0]['id']} (approved)" in first.stderr
    again, llm_calls = ask_with_fake_llm(ALBUMS, MUSIC, "result = 999")
    assert llm_calls == 0 and again.json["answer"] == [[8]]
    assert again.json["program_cache"] == {"id": mine[0]["id"], "origin": "cli"}
