"""The memory builder on small Spider and WikiTableQuestions datasets (written by the
tests), with a real store, real executor and, where the LLM is needed, a fake
OpenAI-compatible server started by the test that replies from a script."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from memory.building import Budget, BuildSample, Journal, MemoryBuilder
from memory.settings import MemorySettings
from memory.store import DemonstrationStore
from plugins import load_source
from plugins.executor import execute
from plugins.workspace import Workspace
from tests.conftest import run_pandora
from tests.evaluation.scripted_replies import code_reply, question_of
from tests.fake_openai import fake_openai_server

DATA = Path(__file__).resolve().parents[2] / "evaluation" / "data"
CORRELATED = (
    "SELECT name FROM shop AS s WHERE EXISTS "
    "(SELECT 1 FROM sale AS x WHERE x.shop_id = s.shop_id AND x.amount > 15)"
)
BIG_SALE_SHOP = "Which shop made a sale above 15?"
RIGHT_CODE = "result = shop[shop['shop_id'].isin(sale[sale['amount'] > 15]['shop_id'])][['name']]"
WRONG_CODE = "result = shop[['name']]"


@pytest.fixture
def spider(tmp_path: Path) -> Path:
    """The tests' Spider folder, its database built, with three questions only an LLM
    can turn into pandas (a correlated subquery) added to the train split."""
    folder = tmp_path / "spider"
    shutil.copytree(DATA / "spider", folder)
    database = folder / "database" / "shop"
    with sqlite3.connect(database / "shop.sqlite") as connection:
        connection.executescript((database / "schema.sql").read_text(encoding="utf-8"))
    questions = json.loads((folder / "train_spider.json").read_text(encoding="utf-8"))[:4]
    for wording in (BIG_SALE_SHOP, "Name the shops with a sale over 15.", "Big-sale shops?"):
        questions.append({"db_id": "shop", "question": wording, "query": CORRELATED})
    (folder / "train_spider.json").write_text(json.dumps(questions), encoding="utf-8")
    return folder


def spider_samples(folder: Path) -> list[BuildSample]:
    """The train questions as build samples."""
    items = json.loads((folder / "train_spider.json").read_text(encoding="utf-8"))
    database = str(folder / "database" / "shop" / "shop.sqlite")
    return [
        BuildSample(
            id=f"train-{n}",
            question=i["question"],
            sources=[database],
            dataset="spider",
            gold_sql=i["query"],
        )
        for n, i in enumerate(items)
    ]


def open_store() -> DemonstrationStore:
    """The memory of this test's PANDORA_HOME."""
    return DemonstrationStore.open(MemorySettings.from_env())


def gold_demonstrations(
    store: DemonstrationStore, dataset: str, representation: str = "pandas"
) -> list[Any]:
    """The demonstrations of one route the build stored (the seed ones are `approved`)."""
    return [
        d
        for d in store.iter_all()
        if d.dataset == dataset and d.verified == "gold" and d.representation == representation
    ]


def test_translator_stage_stores_gold_demonstrations_and_resumes(
    spider: Path, tmp_path: Path
) -> None:
    """No LLM: the four translatable questions become gold pandas demonstrations whose
    code reproduces SQLite's answer; the correlated ones are left; a rerun redoes nothing."""
    store = open_store()
    journal = tmp_path / "journal.jsonl"
    samples = spider_samples(spider)
    report = MemoryBuilder(store, Budget(), Journal(journal)).build(samples)
    assert (report.translated, report.untranslatable) == (4, 3)
    stored = gold_demonstrations(store, "spider")
    assert len(stored) == 4
    queries = {d.question: d.code for d in gold_demonstrations(store, "spider", "sql")}
    assert queries == {sample.question: sample.gold_sql for sample in samples}
    workspace = Workspace.of([load_source(samples[0].sources[0])])
    for demonstration in stored:
        assert demonstration.representation == "pandas"
        assert demonstration.reasoning.startswith("FROM")
        rerun = execute(demonstration.code, workspace, "pandas")
        assert rerun.result == demonstration.answer
    again = MemoryBuilder(store, Budget(), Journal(journal)).build(samples)
    assert (again.skipped, again.translated) == (7, 0)
    assert len(journal.read_text().splitlines()) == 7


def test_llm_sees_the_gold_sql_and_corrects_itself(
    spider: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scripted model: wrong first, right once told the gold answer. The prompt carried
    the gold SQL; the demonstration is stored under the plain question."""
    from agent import AgentContext, configured_chat_model
    from evaluation.agent_runs import AgentAnnotator

    def reply(messages: list[dict[str, Any]]) -> str:
        return code_reply(
            RIGHT_CODE if "correct answer is" in question_of(messages) else WRONG_CODE
        )

    store = open_store()
    sample = next(s for s in spider_samples(spider) if s.question == BIG_SALE_SHOP)
    with fake_openai_server(reply) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("PANDORA_MODEL", "fake-model")
        context = AgentContext(chat_model=configured_chat_model(), store=store, max_attempts=1)
        builder = MemoryBuilder(
            store, Budget(), Journal(tmp_path / "j.jsonl"), annotator=AgentAnnotator(context)
        )
        report = builder.build([sample])
    assert report.annotated == 1
    assert report.llm_calls == 2
    assert CORRELATED in question_of(fake.requests[0]["messages"])
    corrected = question_of(fake.requests[1]["messages"])
    assert f"Your previous program:\n{WRONG_CODE}" in corrected
    assert 'but the correct answer is [["Paper Moon"]]' in corrected
    stored = gold_demonstrations(store, "spider")
    assert [d.question for d in stored] == [BIG_SALE_SHOP]
    assert stored[0].code == RIGHT_CODE
    assert stored[0].answer == [["Paper Moon"]]


def test_budget_stops_the_build_and_a_resumed_build_does_not_redo(spider: Path) -> None:
    """Through `pandora memory build`: one LLM call allowed, then the rest on a rerun;
    the fake server sees each question once."""

    def reply(messages: list[dict[str, Any]]) -> str:
        return code_reply(RIGHT_CODE)

    with fake_openai_server(reply) as fake:
        environment = {
            **os.environ,
            "OPENAI_BASE_URL": fake.base_url,
            "OPENAI_API_KEY": "t",
            "PANDORA_MODEL": "fake-model",
        }
        arguments = [
            "memory",
            "build",
            str(spider),
            "--task",
            "spider",
            "--split",
            "train",
            "--journal",
            str(spider / "journal.jsonl"),
            "--json",
        ]
        first = run_pandora(*arguments, "--max-llm-calls", "1", env=environment)
        assert first.exit_code == 0, first.stderr
        assert first.json["stopped_by"] == "llm_calls"
        assert (first.json["translated"], first.json["annotated"]) == (4, 1)
        assert len(fake.requests) == 1
        second = run_pandora(*arguments, "--max-llm-calls", "10", env=environment)
        assert second.exit_code == 0, second.stderr
        assert (second.json["skipped"], second.json["annotated"]) == (5, 2)
        assert second.json["stopped_by"] is None
        assert len(fake.requests) == 3


def test_held_out_split_leaves_out_its_databases(spider: Path) -> None:
    """`--hold-out dev`: the dev questions use the train questions' only
    database, so nothing is built from it; a split that does not exist is bad input."""
    arguments = ["memory", "build", str(spider), "--task", "spider", "--split", "train"]
    held_out = run_pandora(*arguments, "--no-llm", "--hold-out", "dev", "--json")
    assert held_out.exit_code == 0, held_out.stderr
    assert (held_out.json["translated"], held_out.json["untranslatable"]) == (0, 0)
    assert gold_demonstrations(open_store(), "spider") == []
    missing = run_pandora(*arguments, "--no-llm", "--hold-out", "nosuchsplit", "--json")
    assert missing.exit_code == 2
    assert "nosuchsplit" in missing.stderr + missing.stdout


def test_stage_two_keeps_only_answers_matching_the_gold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WikiTableQuestions samples: the scripted model answers one question right and one
    wrong; only the right one is stored, verified gold, with the task's metric deciding."""
    from agent import AgentContext, configured_chat_model
    from evaluation.agent_runs import AgentAnnotator, build_sample
    from evaluation.datasets import read_dataset
    from evaluation.scoring import score_answer

    examples = {e.id: e for e in read_dataset("wikitq", DATA / "wikitq", "tiny")}
    scripted = {
        "how many shops are there?": "result = len(t_1)",
        "which cities have a shop?": "result = t_1['City']",  # duplicates: Oslo twice is fine
        "what does the sign say?": "result = t_1['Shop'].head(1)",  # wrong
    }

    def reply(messages: list[dict[str, Any]]) -> str:
        return code_reply(scripted[question_of(messages)])

    store = open_store()
    samples = [build_sample(examples[i]) for i in ("t-3", "t-0", "t-1")]
    with fake_openai_server(reply) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("PANDORA_MODEL", "fake-model")
        context = AgentContext(chat_model=configured_chat_model(), store=store, max_attempts=1)
        report = MemoryBuilder(
            store,
            Budget(),
            Journal(tmp_path / "j.jsonl"),
            annotator=AgentAnnotator(context),
            matcher=lambda s, rows, gold: score_answer(examples[s.id], rows, gold).correct,
        ).build(samples)
    assert (report.annotated, report.rejected) == (2, 1)
    assert report.llm_calls == 3
    questions = sorted(d.question for d in gold_demonstrations(store, "wikitq"))
    assert questions == ["how many shops are there?", "which cities have a shop?"]
