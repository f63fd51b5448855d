"""The LLM client path against a fake OpenAI-compatible server on 127.0.0.1
(tests/fake_openai.py): structured output and its fallback, streaming,
timeouts, retries on 429, and the message when no LLM is configured."""

from __future__ import annotations

import json

import pytest

from agent import LLMNotConfiguredError, ask, configured_chat_model
from agent.llm import HOW_TO_CONFIGURE
from agent.parsing import REASONING_MAX_CHARACTERS
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

COUNT_CODE = "result = len(album)"
COUNT_ROWS = "SELECT COUNT(*) FROM album"


def music(examples) -> list[str]:
    return [str(examples / "music.sqlite")]


def test_the_request_asks_for_reasoning_and_code_as_a_json_schema(llm, context, examples):
    reply = json.dumps({"reasoning": "count the rows", "code": [COUNT_CODE]})
    with llm(Step(reply)) as server:
        answer = ask("How many albums are there?", music(examples), context=context)
    assert answer.answer == music_query(COUNT_ROWS)
    assert answer.reasoning == "count the rows"
    response_format = server.requests[0]["response_format"]
    assert response_format["type"] == "json_schema"
    schema = response_format["json_schema"]["schema"]
    assert schema["required"] == ["reasoning", "code"]
    assert schema["properties"]["code"] == {
        "type": "array",
        "items": {"type": "string"},
        "minItems": 1,
    }
    assert schema["properties"]["reasoning"]["maxLength"] == REASONING_MAX_CHARACTERS
    # the instruction asks for the same shape the schema enforces
    assert '"code": ["<first line of code>"' in server.requests[0]["messages"][0]["content"]
    assert server.requests[0]["temperature"] == 0
    assert "tools" not in server.requests[0]


def test_json_with_text_around_it_is_read(llm, context, examples):
    reply = 'Sure! {"reasoning": "count", "code": "result = len(album)"} Hope it helps.'
    with llm(Step(reply)):
        answer = ask("How many albums are there?", music(examples), context=context)
    assert answer.answer == music_query(COUNT_ROWS)


def test_a_server_refusing_json_schema_is_asked_in_plain_text_from_then_on(llm, context, examples):
    refusing = Step(fenced(COUNT_CODE), refuse_response_format=True)
    with llm(refusing, refusing, refusing) as server:
        first = ask("How many albums are there?", music(examples), context=context)
        second = ask("How many albums are there in all?", music(examples), context=context)
    assert first.answer == second.answer == music_query(COUNT_ROWS)
    # one refused request, then plain text: the refusal is remembered
    assert ["response_format" in body for body in server.requests] == [True, False, False]
    assert (first.llm_calls, second.llm_calls) == (1, 1)


def test_streamed_replies_are_read(llm, context, examples, monkeypatch):
    monkeypatch.setenv("PANDORA_LLM_STREAM", "1")
    with llm(Step(fenced(COUNT_CODE))) as server:
        answer = ask("How many albums are there?", music(examples), context=context)
    assert server.requests[0]["stream"] is True
    assert answer.answer == music_query(COUNT_ROWS)
    assert answer.completion_tokens == server.completion_tokens()[0] > 0


def test_a_429_is_retried_and_counts_as_one_llm_call(llm, context, examples):
    with llm(Step(status=429, reply="slow down"), Step(fenced(COUNT_CODE))) as server:
        answer = ask("How many albums are there?", music(examples), context=context)
    assert len(server.requests) == 2
    assert answer.llm_calls == 1
    assert answer.answer == music_query(COUNT_ROWS)


def test_a_5xx_after_every_retry_ends_with_an_llm_error(llm, context, examples, monkeypatch):
    monkeypatch.setenv("PANDORA_LLM_RETRIES", "1")
    with llm(Step(status=503), Step(status=503)) as server:
        answer = ask("How many albums are there?", music(examples), context=context)
    assert len(server.requests) == 2
    assert answer.error is not None and answer.error.type == "LLMError"
    assert answer.llm_calls == 0


def test_a_timeout_ends_with_a_clear_error(llm, context, examples, monkeypatch):
    monkeypatch.setenv("PANDORA_LLM_TIMEOUT", "0.5")
    monkeypatch.setenv("PANDORA_LLM_RETRIES", "0")
    with llm(Step(fenced(COUNT_CODE), delay=3)) as server:
        answer = ask("How many albums are there?", music(examples), context=context)
    assert len(server.requests) == 1
    assert answer.error is not None and answer.error.type == "LLMTimeout"
    assert answer.answer == []


def test_a_base_url_without_a_model_name_uses_the_model_the_server_lists(llm, monkeypatch):
    with llm() as server:
        monkeypatch.delenv("PANDORA_MODEL")
        model = configured_chat_model()
    assert model.model_name == "fake-model"
    assert model.openai_api_base == server.base_url


def test_with_nothing_configured_the_error_says_how_to_configure_one(monkeypatch):
    monkeypatch.setenv("PANDORA_LOCAL_MODEL", "off")
    with pytest.raises(LLMNotConfiguredError) as raised:
        configured_chat_model()
    assert str(raised.value) == HOW_TO_CONFIGURE


def test_a_model_name_without_provider_or_server_is_refused(monkeypatch):
    monkeypatch.setenv("PANDORA_MODEL", "gpt-4o")
    with pytest.raises(LLMNotConfiguredError, match="names no provider"):
        configured_chat_model()


def test_the_local_model_gets_no_demonstrations_unless_told_otherwise():
    from langchain_openai import ChatOpenAI

    from agent import AgentContext

    local = ChatOpenAI(model="local", base_url="http://127.0.0.1:9/v1", api_key="local")
    other = ChatOpenAI(model="gpt-4o-mini", base_url="http://127.0.0.1:9/v1", api_key="x")
    assert AgentContext(chat_model=local).demonstration_count() == 0
    assert AgentContext(chat_model=other).demonstration_count() == 10
    assert AgentContext(chat_model=local, demonstrations=7).demonstration_count() == 7


def test_the_local_model_waits_longer_than_a_remote_server_unless_a_timeout_is_set(
    llm, monkeypatch
):
    """A request to a remote server may take 300 s by default; the local
    model, computing on this machine's CPU, 1800 s; PANDORA_LLM_TIMEOUT sets
    both. Making the local chat model starts no server (its first request does)."""
    monkeypatch.delenv("PANDORA_LLM_TIMEOUT")
    with llm():
        assert configured_chat_model().request_timeout == 300
        monkeypatch.setenv("PANDORA_MODEL", "local")
        assert configured_chat_model().request_timeout == 1800
        monkeypatch.setenv("PANDORA_LLM_TIMEOUT", "42")
        assert configured_chat_model().request_timeout == 42
