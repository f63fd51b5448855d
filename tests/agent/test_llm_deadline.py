"""A hostile LLM server cannot hold a question: every request ends by its
deadline (PANDORA_LLM_TIMEOUT bounds the whole request, not each read), a
reply stops being read past its byte cap, and a malformed reply is one LLM
error line. The servers are real HTTP servers on 127.0.0.1
(tests/agent/hostile_openai.py) that give up by themselves after 12 s."""

from __future__ import annotations

import time

import pytest

from agent import ask
from agent.llm_deadline import MAX_REPLY_BYTES
from tests.agent.hostile_openai import Behaviour, hostile_openai_server

DEADLINE_SECONDS = 1.5
ENOUGH_SECONDS = 6.0
"""A bounded request ends well before the hostile server gives up (12 s)."""


@pytest.fixture
def hostile(monkeypatch: pytest.MonkeyPatch):
    """`with hostile(behaviour) as requests:` configures the hostile server as the LLM."""

    def configure(behaviour: Behaviour):
        manager = hostile_openai_server(behaviour)

        class Configured:
            def __enter__(self) -> list[float]:
                base_url, requests = manager.__enter__()
                monkeypatch.setenv("OPENAI_BASE_URL", base_url)
                monkeypatch.setenv("OPENAI_API_KEY", "test-key")
                monkeypatch.setenv("PANDORA_MODEL", "hostile")
                monkeypatch.setenv("PANDORA_LLM_TIMEOUT", str(DEADLINE_SECONDS))
                monkeypatch.setenv("PANDORA_LLM_RETRIES", "0")
                return requests

            def __exit__(self, *exc_info: object) -> None:
                manager.__exit__(*exc_info)

        return Configured()

    return configure


@pytest.mark.parametrize(
    ("behaviour", "stream"),
    [
        (Behaviour.DRIP_HEADERS, False),
        (Behaviour.DRIP_BODY, False),
        (Behaviour.ENDLESS_STREAM, True),
    ],
)
def test_a_slow_or_endless_reply_ends_at_the_request_deadline(
    hostile, context, examples, monkeypatch, behaviour, stream
):
    if stream:
        monkeypatch.setenv("PANDORA_LLM_STREAM", "1")
    with hostile(behaviour) as requests:
        started = time.monotonic()
        answer = ask("How many albums?", [str(examples / "music.sqlite")], context=context)
        elapsed = time.monotonic() - started
    assert len(requests) == 1
    assert elapsed < ENOUGH_SECONDS, f"{behaviour.value}: {elapsed:.1f} s"
    assert answer.error is not None and answer.error.type == "LLMTimeout"
    assert answer.answer == []


def test_a_flood_is_cut_at_the_byte_cap(hostile, context, examples, monkeypatch):
    monkeypatch.setenv("PANDORA_LLM_STREAM", "1")
    with hostile(Behaviour.FLOOD_STREAM):
        started = time.monotonic()
        answer = ask("How many albums?", [str(examples / "music.sqlite")], context=context)
        elapsed = time.monotonic() - started
    assert answer.error is not None and answer.error.type == "LLMError"
    assert f"{MAX_REPLY_BYTES:,} bytes" in answer.error.message
    assert elapsed < ENOUGH_SECONDS


def test_the_question_deadline_also_bounds_requests(hostile, examples, monkeypatch):
    """A request's own deadline is long here; the question's short one ends it."""
    from agent.llm_deadline import question_deadline

    with hostile(Behaviour.DRIP_BODY):
        monkeypatch.setenv("PANDORA_LLM_TIMEOUT", "60")
        from agent import configured_chat_model
        from agent.chat import LLMCallError, complete

        model = configured_chat_model()
        started = time.monotonic()
        with question_deadline(1.0), pytest.raises(LLMCallError) as raised:
            complete(model, [{"role": "user", "content": "hi"}], {"type": "object"})
        assert time.monotonic() - started < ENOUGH_SECONDS
    assert raised.value.error_type == "LLMTimeout"


@pytest.mark.parametrize(
    "behaviour", [Behaviour.NOT_JSON, Behaviour.BAD_USAGE, Behaviour.NO_CHOICES]
)
def test_a_malformed_reply_is_one_llm_error_line_and_exit_1(hostile, pandora, examples, behaviour):
    with hostile(behaviour):
        run = pandora("ask", "How many albums?", "--source", str(examples / "music.sqlite"))
    assert run.exit_code == 1, run.stderr
    assert "Traceback" not in run.stderr
    error_lines = [line for line in run.stderr.splitlines() if "LLMError" in line]
    assert len(error_lines) == 1, run.stderr
