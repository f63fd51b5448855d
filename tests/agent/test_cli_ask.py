"""`pandora ask` and `pandora model` as a user runs them (a subprocess), with
a fake OpenAI-compatible server on 127.0.0.1 as the LLM."""

from __future__ import annotations

import os

from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

COUNT = "result = len(album)"


def llm_env(server) -> dict[str, str]:
    return {
        **os.environ,
        "OPENAI_BASE_URL": server.base_url,
        "OPENAI_API_KEY": "test-key",
        "PANDORA_MODEL": "fake-model",
    }


def test_ask_json_prints_exactly_the_answer_object(llm, pandora, examples):
    with llm(Step(fenced(COUNT))) as server:
        run = pandora(
            "ask",
            "How many albums are there?",
            "--source",
            str(examples / "music.sqlite"),
            "--json",
            env=llm_env(server),
        )
    assert run.exit_code == 0, run.stderr
    answer = run.json
    assert set(answer) == {
        "answer",
        "columns",
        "reasoning",
        "code",
        "representation",
        "attempts",
        "llm_calls",
        "prompt_tokens",
        "cached_prompt_tokens",
        "completion_tokens",
        "soft",
        "error",
        "candidates",
        "votes",
        "agreement",
        "program_cache",
        "trace",
        "focus",
        "chart",
    }
    assert answer["focus"] is None  # no knowledge graph
    assert answer["answer"] == music_query("SELECT COUNT(*) FROM album")
    assert answer["llm_calls"] == 1 and answer["error"] is None


def test_ask_text_prints_rows_and_trace_streams_node_events(llm, pandora, examples):
    with llm(Step(fenced("result = artist[['name']].head(2)"))) as server:
        run = pandora(
            "ask",
            "Name two artists",
            "--source",
            str(examples / "music.sqlite"),
            "--trace",
            env=llm_env(server),
        )
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "name"
    assert lines[1:] == [row[0] for row in music_query("SELECT name FROM artist LIMIT 2")]
    nodes = [line.split("]")[0] + "]" for line in run.stderr.splitlines() if line.startswith("[")]
    assert nodes == [
        "[plan]",
        "[retrieve_demonstrations]",
        "[generate_code]",
        "[execute]",
        "[reflect]",
        "[vote]",
    ]


def test_a_question_that_could_not_be_answered_exits_1_with_the_reason(llm, pandora, examples):
    with llm(*(Step(fenced("result = album['nope']")) for _ in range(2))) as server:
        run = pandora(
            "ask",
            "What is the average price?",
            "--source",
            str(examples / "music.sqlite"),
            "--attempts",
            "2",
            "--json",
            env=llm_env(server),
        )
    assert run.exit_code == 1
    assert run.json["error"]["type"] == "NotInData" and run.json["attempts"] == 2
    assert run.stderr.strip().splitlines()[-1].startswith("pandora: NotInData:")


def test_no_llm_configured_is_one_line_and_exit_2(pandora, examples):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PANDORA_MODEL")
    }
    env["PANDORA_LOCAL_MODEL"] = "off"
    run = pandora("ask", "How many albums?", "--source", str(examples / "music.sqlite"), env=env)
    assert run.exit_code == 2
    assert run.stdout == ""
    (line,) = run.stderr.strip().splitlines()
    assert "no LLM is configured" in line and "pandora-skr[local]" in line


def test_bad_input_is_exit_2_before_any_llm_call(llm, pandora, examples, tmp_path):
    with llm() as server:
        missing = pandora(
            "ask", "Q?", "--source", str(tmp_path / "nope.csv"), "--json", env=llm_env(server)
        )
        wrong = pandora(
            "ask",
            "Q?",
            "--source",
            str(examples / "music.sqlite"),
            "--representation",
            "networkx",
            env=llm_env(server),
        )
    assert missing.exit_code == 2 and missing.json["error"]["type"] == "BadInput"
    assert wrong.exit_code == 2 and "networkx representation shows kg" in wrong.stderr
    assert server.requests == []


def test_model_status_json(pandora, memory_home, monkeypatch):
    monkeypatch.delenv("PANDORA_MODEL_DIR", raising=False)
    run = pandora("model", "status", "--json")
    assert run.exit_code == 0, run.stderr
    status = run.json
    assert status["server"] is None
    assert status["model_file"].startswith(str(memory_home / "models"))
    assert isinstance(status["installed"], bool) and isinstance(status["prepared"], bool)
