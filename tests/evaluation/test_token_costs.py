"""What a question cost: the prompt tokens the server computed (those its
prompt cache served left out) and the tokens it generated, from the fake
OpenAI-compatible server's llama.cpp timings to results.jsonl and the report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.report import write_report
from evaluation.runner import ItemResult, read_results
from tests.conftest import run_pandora
from tests.evaluation.scripted_replies import code_reply, question_of
from tests.evaluation.test_runner import PANDAS, fake_environment
from tests.fake_openai import Step, fake_openai_server

TIMINGS = {"cache_n": 1800, "prompt_n": 200, "predicted_n": 30, "prompt_ms": 900.0}


def cached_reply(messages: list[dict[str, Any]]) -> Step:
    """The right pandas program, sent as llama.cpp does with 1,800 of 2,000 prompt tokens cached."""
    return Step(code_reply(PANDAS[question_of(messages)]), prompt_tokens=2000, timings=TIMINGS)


def test_eval_records_and_reports_the_prompt_tokens_computed(
    datasets: Path, tmp_path: Path
) -> None:
    output = tmp_path / "run"
    with fake_openai_server(cached_reply) as fake:
        run = run_pandora(
            "eval",
            str(datasets / "spider"),
            "--task",
            "spider",
            "--sample",
            "2",
            "--config",
            "pandora",
            "--attempts",
            "1",
            "--output",
            str(output),
            "--json",
            env=fake_environment(fake.base_url),
        )
    assert run.exit_code == 0, run.stderr
    rows = [json.loads(line) for line in (output / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2
    for row in rows:
        assert row["llm_calls"] == 1
        assert (row["prompt_tokens"], row["cached_prompt_tokens"]) == (2000, 1800)
    generated = sum(row["completion_tokens"] for row in rows) / 2
    assert generated > 0
    (summary,) = run.json["configurations"]
    assert summary["computed_prompt_tokens_per_question"] == 200
    assert summary["generated_tokens_per_question"] == generated
    report = (output / "report.md").read_text()
    assert "| computed prompt tokens/q | generated tokens/q | seconds/q |" in report
    assert f"| 1.00 | 200 (of 2000 sent) | {generated:.0f} |" in report


def test_results_recorded_before_cached_tokens_were_kept_still_load_and_report(
    tmp_path: Path,
) -> None:
    old_row = {
        "configuration": "pandora",
        "id": "q1",
        "task": "spider",
        "database": "shop",
        "question": "How many shops are in Oslo?",
        "correct": True,
        "score": 1.0,
        "predicted": [[2]],
        "gold": [[2]],
        "llm_calls": 2,
        "prompt_tokens": 3000,
        "completion_tokens": 120,
        "seconds": 4.0,
    }
    (tmp_path / "results.jsonl").write_text(json.dumps(old_row) + "\n", encoding="utf-8")
    (result,) = read_results(tmp_path)
    assert result.cached_prompt_tokens == 0
    text = write_report([result], tmp_path, "old results").read_text(encoding="utf-8")
    assert "| 2.00 | 3000 | 120 | 4.0 |" in text


def test_a_row_claiming_more_cached_tokens_than_its_prompt_computes_none(tmp_path: Path) -> None:
    row = ItemResult(
        configuration="pandora",
        id="q1",
        task="spider",
        database="shop",
        question="q?",
        correct=False,
        score=0.0,
        predicted=[],
        gold=[[1]],
        llm_calls=1,
        prompt_tokens=500,
        cached_prompt_tokens=9000,
        completion_tokens=10,
    )
    text = write_report([row], tmp_path, "odd results").read_text(encoding="utf-8")
    assert "| 1.00 | 0 (of 500 sent) | 10 |" in text
