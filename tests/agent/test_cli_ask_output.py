"""`pandora ask --output FILE` and the answer's sentence, through the real
command with a fake OpenAI-compatible server as the LLM."""

from __future__ import annotations

import csv
import os

from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step


def test_ask_writes_the_answer_rows_and_says_the_answer(llm, pandora, examples, tmp_path):
    output = tmp_path / "answer.csv"
    with llm(Step(fenced("result = len(album)"))) as server:
        environment = {
            **os.environ,
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "test-key",
            "PANDORA_MODEL": "fake-model",
        }
        run = pandora(
            "ask",
            "How many albums are there?",
            "--source",
            str(examples / "music.sqlite"),
            "--output",
            str(output),
            env=environment,
        )
    assert run.exit_code == 0, run.stderr
    [[count]] = music_query("SELECT COUNT(*) FROM album")
    with output.open(newline="", encoding="utf-8") as handle:
        assert list(csv.reader(handle)) == [["result"], [str(count)]]
    assert f"The answer is {count}." in run.stderr.splitlines()
