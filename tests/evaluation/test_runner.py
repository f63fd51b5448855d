"""`pandora eval` end to end against a fake OpenAI-compatible server started by the test
(scripted replies per question and prompt kind), and the runner's pieces."""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from agent.answer import TraceEvent
from agent.context import AgentContext
from evaluation import runner
from evaluation.code_version import code_version
from evaluation.configurations import CONFIGURATIONS, applicable
from evaluation.datasets import read_dataset
from evaluation.datasets.example import Example
from evaluation.runner import attempt_steps, run_evaluation
from evaluation.scoring import error_category
from evaluation.selection import (
    only_databases,
    only_questions,
    run_order,
    sample_examples,
    split_by_database,
    without_databases_of,
)
from tests.conftest import run_pandora
from tests.evaluation.scripted_replies import code_reply, direct_reply, mode_of, question_of
from tests.fake_openai import fake_openai_server

PANDAS = {
    "How many shops are in Oslo?": "result = (shop['city'] == 'Oslo').sum()",
    "List the shops by opening year, newest first.": "result = shop.sort_values('opened')['name']",
    "Which shops opened after 2005?": "result = shop[shop['opened'] > 2005]['name']",
    "What is the total amount of sales of each shop, by name?": (
        "result = sale.merge(shop, on='shop_id').groupby('name')['amount'].sum()"
    ),
}
DIRECT = {"How many shops are in Oslo?": "2"}


def fake_environment(base_url: str) -> dict[str, str]:
    """The environment of a `pandora` subprocess whose LLM is the fake server."""
    return {
        **os.environ,
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": "t",
        "PANDORA_MODEL": "fake-model",
    }


def reply(messages: list[dict[str, Any]]) -> str:
    """Pandas answers (one of them sorted the wrong way); direct answers."""
    question = question_of(messages)
    if mode_of(messages) == "direct":
        return direct_reply(DIRECT.get(question, "no idea"))
    return code_reply(PANDAS[question])


def test_eval_writes_results_and_report_and_resumes(datasets: Path, tmp_path: Path) -> None:
    """Accuracy per configuration as computed by hand: pandora gets 3 of 4 (the newest-
    first list is sorted oldest first, a logic error), direct answering 1 of 4. The
    report and its charts are written; a rerun asks the server nothing."""
    output = tmp_path / "run"
    with fake_openai_server(reply) as fake:
        environment = fake_environment(fake.base_url)
        arguments = [
            "eval",
            str(datasets / "spider"),
            "--task",
            "spider",
            "--sample",
            "4",
            "--config",
            "pandora",
            "--config",
            "direct-answer",
            "--attempts",
            "1",
            "--output",
            str(output),
            "--json",
        ]
        first = run_pandora(*arguments, env=environment)
        assert first.exit_code == 0, first.stderr
        calls = len(fake.requests)
        assert calls == 8
        second = run_pandora(*arguments, env=environment)
        assert second.exit_code == 0, second.stderr
        assert len(fake.requests) == calls
    summaries = {s["configuration"]: s for s in first.json["configurations"]}
    assert summaries["pandora"]["correct"] == 3
    assert summaries["pandora"]["errors"]["wrong logic"] == 1
    assert summaries["direct-answer"]["correct"] == 1
    assert summaries["pandora"]["llm_calls_per_question"] == 1.0
    assert second.json["configurations"] == first.json["configurations"]
    lines = (output / "results.jsonl").read_text().splitlines()
    assert len(lines) == 8
    for item in map(json.loads, lines):
        if item["configuration"] == "pandora":
            assert item["steps"] == [{"code": item["code"], "problem": None, "feedback": None}]
        assert item["code_version"] == code_version()
    report = (output / "report.md").read_text()
    assert "| pandora | 4 | 75.0% |" in report
    assert f"Code versions (results): {code_version()} (8)." in report
    for chart in ("accuracy.png", "errors.png", "cost.png"):
        assert (output / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_attempt_steps_pair_each_program_with_its_feedback() -> None:
    """Read from an agent trace: an unreadable reply, a failing program and
    the accepted one, each with the feedback that followed it."""
    trace = [
        TraceEvent(node="plan", event="plan", detail={"representation": "pandas"}),
        TraceEvent(node="generate_code", event="code", detail={"code": "", "problem": "no code"}),
        TraceEvent(node="reflect", event="feedback", detail={"feedback": "no code"}),
        TraceEvent(node="generate_code", event="code", detail={"code": "result = albums"}),
        TraceEvent(node="execute", event="execution", detail={"error": "NameError: albums"}),
        TraceEvent(node="reflect", event="feedback", detail={"feedback": "Did you mean album?"}),
        TraceEvent(node="generate_code", event="code", detail={"code": "result = album"}),
        TraceEvent(node="reflect", event="answer", detail={}),
    ]
    assert [step.model_dump() for step in attempt_steps(trace)] == [
        {"code": "", "problem": "no code", "feedback": "no code"},
        {"code": "result = albums", "problem": None, "feedback": "Did you mean album?"},
        {"code": "result = album", "problem": None, "feedback": None},
    ]


def test_eval_refuses_an_unknown_configuration(datasets: Path) -> None:
    """Bad input: exit 2 naming the configuration, before any question is asked."""
    refused = run_pandora(
        "eval", str(datasets / "spider"), "--task", "spider", "--config", "magic", "--json"
    )
    assert refused.exit_code == 2
    assert "magic" in refused.json["error"]["message"]


def example(gold_sql: str | None = None) -> Example:
    """A minimal Spider example."""
    return Example(id="x", task="spider", question="q", sources=[], database="d", gold_sql=gold_sql)


def test_error_categories() -> None:
    """Failed program; right values in the wrong shape; other tables than the gold
    query reads; otherwise the logic."""
    gold = [["Oslo", 2]]
    sql = "SELECT city, count(*) FROM shop GROUP BY city"
    assert error_category(example(sql), [], gold, "", failed=True) == "execution error"
    assert error_category(example(sql), [["Oslo"], [2]], gold, "", False) == "answer format"
    assert error_category(example(sql), [["x", 1]], gold, "result = sale['x']", False) == (
        "wrong schema linking"
    )
    assert error_category(example(sql), [["x", 1]], gold, "result = shop['x']", False) == (
        "wrong logic"
    )
    assert error_category(example(sql), [["x", 1]], gold, "", False) == "wrong logic"


def test_database_split_is_disjoint_and_samples_are_seeded(datasets: Path) -> None:
    """Build and eval halves share no database; the same seed gives the same sample."""
    examples = [
        e.model_copy(update={"database": f"db{n % 4}", "id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 3)
    ]
    build = {e.database for e in split_by_database(examples, 7, "build")}
    evaluate = {e.database for e in split_by_database(examples, 7, "eval")}
    assert build and evaluate and not build & evaluate
    assert build | evaluate == {"db0", "db1", "db2", "db3"}
    first = [e.id for e in sample_examples(examples, 3, count=5)]
    assert first == [e.id for e in sample_examples(examples, 3, count=5)]
    assert len(first) == 5


def test_held_out_examples_take_their_databases_with_them(datasets: Path) -> None:
    """A memory built without the databases of an evaluated split shares none with it."""
    examples = [
        e.model_copy(update={"database": f"db{n % 4}", "id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 3)
    ]
    held_out = [e for e in examples if e.database in ("db1", "db3")][:3]
    kept = without_databases_of(examples, held_out)
    assert {e.database for e in held_out} == {"db1", "db3"}
    assert {e.database for e in kept} == {"db0", "db2"}


def test_a_sample_of_two_variants_takes_equal_shares_of_each(datasets: Path) -> None:
    """TempTabQA-C's gap compares its variants: `--sample 7` over 30 originals
    and 10 counterfactuals is 4 counterfactual and 3 original questions."""
    examples = [
        e.model_copy(update={"variant": "original" if n < 30 else "counterfactual", "id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 40)
    ][:40]
    assert len(examples) == 40
    sample = sample_examples(examples, 5, count=7)
    variants = [e.variant for e in sample]
    assert variants.count("counterfactual") == 4 and variants.count("original") == 3
    assert [e.id for e in sample] == sorted((e.id for e in sample), key=int)  # file order
    assert len(sample_examples(examples, 5, count=100)) == 40
    assert sample_examples([], 5, count=3) == []


def test_naming_databases_keeps_only_their_questions(datasets: Path) -> None:
    """`--database` keeps the questions of the databases named; a name the
    dataset does not have is bad input, named in a one-line error (exit 2)."""
    examples = [
        e.model_copy(update={"database": f"db{n % 3}", "id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 3)
    ]
    kept = only_databases(examples, ["db0", "db2"])
    assert kept and {e.database for e in kept} == {"db0", "db2"}
    assert len(kept) == sum(e.database != "db1" for e in examples)
    refused = run_pandora(
        "eval", str(datasets / "spider"), "--task", "spider", "--database", "atlantis", "--json"
    )
    assert refused.exit_code == 2
    assert "'atlantis'" in refused.json["error"]["message"]


def test_naming_questions_keeps_only_them_from_the_sample(datasets: Path) -> None:
    """`--question` asks again questions of a sample; an id the sample does
    not hold is bad input, named in a one-line error (exit 2)."""
    examples = [
        e.model_copy(update={"id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 3)
    ]
    assert [e.id for e in only_questions(examples, ["4", "1"])] == ["1", "4"]
    first = read_dataset("spider", datasets / "spider")[0].id
    refused = run_pandora(
        "eval", str(datasets / "spider"), "--task", "spider",
        "--question", first, "--question", "no-such-question", "--json",
    )  # fmt: skip
    assert refused.exit_code == 2
    assert "'no-such-question'" in refused.json["error"]["message"]


def test_a_run_answers_its_sample_in_a_seeded_shuffled_order(datasets: Path) -> None:
    """Databases that come first in the file do not fill a run stopped early."""
    examples = [
        e.model_copy(update={"database": f"db{n // 10}", "id": str(n)})
        for n, e in enumerate(read_dataset("spider", datasets / "spider") * 10)
    ]
    order = run_order(examples, 7)
    assert sorted(e.id for e in order) == sorted(e.id for e in examples)
    assert [e.id for e in order] == [e.id for e in run_order(examples, 7)]
    assert len({e.database for e in order[: len(order) // 4]}) > 1


def test_representation_ablations_fit_the_task() -> None:
    """NetworkX only over knowledge graphs; SQL everywhere (a KG as its BOXes)."""
    assert applicable("sql", "spider") and applicable("text-to-sql", "spider4sparql")
    assert applicable("networkx", "spider4sparql") and not applicable("networkx", "wikitq")
    assert CONFIGURATIONS["text-to-sql"].max_attempts == 1


def test_eval_stopped_by_max_seconds_reports_what_it_has_and_resumes(
    datasets: Path, tmp_path: Path
) -> None:
    """A run out of time starts no question and says so; with one result kept
    from an earlier run, it reports that one as partial; the same command
    without a limit then asks only for the other three."""
    output = tmp_path / "run"
    with fake_openai_server(reply) as fake:
        environment = fake_environment(fake.base_url)
        arguments = ["eval", str(datasets / "spider"), "--task", "spider", "--sample", "4"]
        arguments += ["--attempts", "1", "--output", str(output), "--json"]
        out_of_time = run_pandora(*arguments, "--max-seconds", "0", env=environment)
        assert out_of_time.exit_code == 0, out_of_time.stderr
        assert (out_of_time.json["answered"], out_of_time.json["stopped_by"]) == (0, "time")
        assert fake.requests == []
        assert run_pandora(*arguments, env=environment).exit_code == 0
        results = output / "results.jsonl"
        results.write_text(results.read_text().splitlines()[0] + "\n")
        calls = len(fake.requests)
        partial = run_pandora(*arguments, "--max-seconds", "0", env=environment)
        assert (partial.json["answered"], partial.json["stopped_by"]) == (1, "time")
        assert "partial: 1 of 4 questions answered" in (output / "report.md").read_text()
        rest = run_pandora(*arguments, env=environment)
        assert rest.exit_code == 0, rest.stderr
    assert (rest.json["answered"], rest.json["stopped_by"]) == (4, None)
    assert len(fake.requests) == calls + 3
    assert len(results.read_text().splitlines()) == 4


def test_the_report_follows_the_order_of_the_configurations_asked(
    datasets: Path, tmp_path: Path
) -> None:
    """An earlier run of text-to-sql put its results first in the file; the
    report still lists pandora, the first configuration asked, first and
    pairs text-to-sql with it."""
    output = tmp_path / "run"
    arguments = ["eval", str(datasets / "spider"), "--task", "spider", "--sample", "2"]
    arguments += ["--attempts", "1", "--output", str(output), "--json"]
    with fake_openai_server(reply) as fake:
        environment = fake_environment(fake.base_url)
        earlier = run_pandora(*arguments, "--config", "text-to-sql", env=environment)
        assert earlier.exit_code == 0, earlier.stderr
        both = run_pandora(
            *arguments, "--config", "pandora", "--config", "text-to-sql", env=environment
        )
        assert both.exit_code == 0, both.stderr
    lines = (output / "results.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["configuration"] == "text-to-sql"
    report = (output / "report.md").read_text()
    assert report.index("| pandora |") < report.index("| text-to-sql |")
    assert "Paired with pandora on the questions both answered" in report
    assert re.search(r"\| text-to-sql \| 2 \| \d \| \d \| \d \| [01]\.\d{3} \|", report)


def test_results_record_the_version_of_the_code_that_started_the_run(
    datasets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A commit made while a run goes on does not relabel its answers: the
    checkout's version is asked for once, when the run starts, here by a
    checkout that reports a new commit every time it is asked (in-process
    run against the fake OpenAI-compatible server)."""
    commits = itertools.count()
    monkeypatch.setattr(runner, "code_version", lambda: f"commit-{next(commits)}")
    examples = read_dataset("spider", datasets / "spider")[:2]
    with fake_openai_server(reply) as fake:
        for name, value in fake_environment(fake.base_url).items():
            monkeypatch.setenv(name, value)
        results = run_evaluation(
            examples,
            [CONFIGURATIONS["pandora"], CONFIGURATIONS["direct-answer"]],
            tmp_path / "run",
            AgentContext(max_attempts=1),
        )
    assert [result.code_version for result in results] == ["commit-0"] * 4
