"""A question never hangs: `--timeout` / PANDORA_ASK_TIMEOUT /
`ask(timeout_seconds=...)` bound the whole question (error type `Timeout`,
its LLM request cut), and `pandora ask` shows a live line on stderr during
every LLM call, never on its --json stdout. The LLM is the fake
OpenAI-compatible server of tests/fake_openai.py."""

from __future__ import annotations

import re
import threading
import time

import pytest

from agent import ask
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

COUNT_CODE = "result = len(album)"
SLOW_SECONDS = 15.0
LIMIT_SECONDS = 1.5
LIVE_LINE = re.compile(r"^pandora: LLM call 1: (\d+) tokens, \d+ s$", re.MULTILINE)


@pytest.fixture(autouse=True)
def no_local_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that reaches the LLM without the fake one fails; it never starts the real model."""
    monkeypatch.setenv("PANDORA_LOCAL_MODEL", "off")


def music(examples) -> list[str]:
    return [str(examples / "music.sqlite")]


def question_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "pandora-question"]


def test_a_question_past_its_timeout_ends_with_a_timeout_error(llm, context, examples):
    with llm(Step(fenced(COUNT_CODE), delay=SLOW_SECONDS)):
        started = time.monotonic()
        answer = ask(
            "How many albums?", music(examples), context=context, timeout_seconds=LIMIT_SECONDS
        )
        elapsed = time.monotonic() - started
        assert answer.error is not None and answer.error.type == "Timeout"
        assert answer.answer == []
        assert elapsed < LIMIT_SECONDS + 2
        # the question's LLM request is cut too: its worker does not wait for the reply
        deadline = time.monotonic() + 5
        while question_threads() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not question_threads()


def test_a_question_within_its_timeout_is_answered(llm, context, examples):
    events = []
    with llm(Step(fenced(COUNT_CODE))):
        answer = ask(
            "How many albums?",
            music(examples),
            context=context,
            timeout_seconds=60,
            on_event=events.append,
        )
    assert answer.error is None
    assert answer.answer == music_query("SELECT COUNT(*) FROM album")
    assert events


@pytest.mark.parametrize("how", ["option", "environment"])
def test_pandora_ask_stops_at_its_timeout(llm, pandora, examples, monkeypatch, how):
    arguments = ["ask", "How many albums?", "--source", str(examples / "music.sqlite"), "--json"]
    if how == "option":
        arguments += ["--timeout", str(LIMIT_SECONDS)]
    else:
        monkeypatch.setenv("PANDORA_ASK_TIMEOUT", str(LIMIT_SECONDS))
    with llm(Step(fenced(COUNT_CODE), delay=SLOW_SECONDS)):
        started = time.monotonic()
        run = pandora(*arguments)
        elapsed = time.monotonic() - started
    assert run.exit_code == 1, run.stderr
    assert run.json["error"]["type"] == "Timeout"
    assert elapsed < SLOW_SECONDS


@pytest.mark.parametrize("value", ["0", "-3", "soon"])
def test_a_bad_timeout_is_refused(pandora, examples, value):
    source = str(examples / "music.sqlite")
    run = pandora("ask", "How many?", "--source", source, "--timeout", value)
    assert run.exit_code == 2
    assert "--timeout" in run.stderr


def test_a_bad_timeout_in_the_environment_is_refused_by_the_api(examples, monkeypatch):
    from plugins.errors import BadInputError

    monkeypatch.setenv("PANDORA_ASK_TIMEOUT", "soon")
    with pytest.raises(BadInputError, match="PANDORA_ASK_TIMEOUT"):
        ask("How many albums?", music(examples))


@pytest.mark.parametrize("timeout", [None, "60"])
def test_pandora_ask_shows_a_live_line_per_llm_call_on_stderr_only(llm, pandora, examples, timeout):
    arguments = ["ask", "How many albums?", "--source", str(examples / "music.sqlite"), "--json"]
    if timeout:
        arguments += ["--timeout", timeout]
    reply = fenced(COUNT_CODE)
    with llm(Step(reply)) as server:
        run = pandora(*arguments)
    assert run.exit_code == 0, run.stderr
    assert run.json["answer"] == music_query("SELECT COUNT(*) FROM album")
    assert server.requests[0]["stream"] is True
    counts = [int(tokens) for tokens in LIVE_LINE.findall(run.stderr)]
    # a line when the call starts, one when it ends with the reply's tokens
    assert counts[0] == 0 and counts[-1] > 0, run.stderr
    assert "LLM call" not in run.stdout
