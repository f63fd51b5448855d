"""The prompt tokens a server took from its prompt cache, per LLM call and per
answer, against the fake OpenAI-compatible server (tests/fake_openai.py)
sending llama.cpp's `timings` or OpenAI's `cached_tokens`, through the real
langchain-openai client and the deadline transport."""

from __future__ import annotations

import dataclasses
import json
import math
from typing import Any

import pytest

from agent import ask
from agent.chat import LLMCallError, Reply, complete
from agent.llm import configured_chat_model
from tests.agent.conftest import fenced, music_query
from tests.fake_openai import Step

WRONG = "result = albums.shape[0]"  # `albums` does not exist: a second call
RIGHT = "result = album.shape[0]"
COUNT_ROWS = "SELECT COUNT(*) FROM album"
LLAMA_TIMINGS = {
    "cache_n": 1800,
    "prompt_n": 200,
    "prompt_ms": 3100.5,
    "predicted_n": 12,
    "predicted_ms": 820.0,
}


def llama_step(code: str, **changes: Any) -> Step:
    """A reply as llama.cpp sends it when 1,800 of its 2,000 prompt tokens were cached."""
    return Step(fenced(code), prompt_tokens=2000, timings={**LLAMA_TIMINGS, **changes})


@pytest.mark.parametrize("stream", ["0", "1"])
def test_llama_cpp_timings_give_the_cached_prompt_tokens_of_every_call(
    llm, context, examples, monkeypatch, stream
):
    monkeypatch.setenv("PANDORA_LLM_STREAM", stream)
    without_repair = dataclasses.replace(context, repair=False)
    with llm(llama_step(WRONG), llama_step(RIGHT)) as server:
        answer = ask(
            "How many albums are there?", [str(examples / "music.sqlite")], context=without_repair
        )
    assert server.requests[0].get("stream", False) is (stream == "1")
    assert answer.answer == music_query(COUNT_ROWS)
    assert answer.llm_calls == 2
    assert (answer.prompt_tokens, answer.cached_prompt_tokens) == (4000, 3600)
    calls = [event.detail for event in answer.trace if event.event == "code"]
    assert [(call["prompt_tokens"], call["cached_prompt_tokens"]) for call in calls] == [
        (2000, 1800),
        (2000, 1800),
    ]


def one_completion(step: Step, llm, monkeypatch, stream: str = "0") -> Reply:
    """One LLM call through the configured client, the fake server playing `step`."""
    monkeypatch.setenv("PANDORA_LLM_STREAM", stream)
    with llm(step):
        return complete(configured_chat_model(), [{"role": "user", "content": "hi"}], None)


def test_the_standard_cached_tokens_come_before_llama_cpp_timings(llm, monkeypatch):
    step = Step("hello", prompt_tokens=2000, cached_tokens=1500, timings=LLAMA_TIMINGS)
    reply = one_completion(step, llm, monkeypatch)
    assert (reply.prompt_tokens, reply.cached_prompt_tokens) == (2000, 1500)


def test_a_server_that_says_nothing_of_a_cache_has_every_prompt_token_computed(llm, monkeypatch):
    reply = one_completion(Step("hello", prompt_tokens=2000), llm, monkeypatch)
    assert (reply.prompt_tokens, reply.cached_prompt_tokens) == (2000, 0)


HOSTILE_TIMINGS = [
    {**LLAMA_TIMINGS, "cache_n": -1800},
    {**LLAMA_TIMINGS, "cache_n": "1800"},
    {**LLAMA_TIMINGS, "cache_n": [1800]},
    {**LLAMA_TIMINGS, "cache_n": True},
    {**LLAMA_TIMINGS, "cache_n": math.inf},
    {**LLAMA_TIMINGS, "cache_n": math.nan},
    {**LLAMA_TIMINGS, "cache_n": 10**30},
    {"cache_n": {"deep": [1, 2, 3]}},
    "all of them",
]


@pytest.mark.parametrize("stream", ["0", "1"])
def test_hostile_llama_cpp_timings_are_left_out(llm, monkeypatch, stream):
    for timings in HOSTILE_TIMINGS:
        step = Step("hello", prompt_tokens=2000, timings=timings)  # type: ignore[arg-type]
        reply = one_completion(step, llm, monkeypatch, stream)
        assert (reply.text, reply.prompt_tokens, reply.cached_prompt_tokens) == (
            "hello",
            2000,
            0,
        ), timings


def test_hostile_standard_cached_tokens_are_left_out(llm, monkeypatch):
    for cached in ("many", -5, math.inf, 10**30):
        reply = one_completion(
            Step("hello", prompt_tokens=2000, cached_tokens=cached), llm, monkeypatch
        )
        assert (reply.prompt_tokens, reply.cached_prompt_tokens) == (2000, 0), cached


def test_streamed_non_numeric_cached_tokens_are_a_malformed_reply(llm, monkeypatch):
    """LangChain checks the usage of a streamed reply as it checks a non-numeric
    `prompt_tokens`: one clear LLM error, no crash, no figure."""
    step = Step("hello", prompt_tokens=2000, cached_tokens="many")
    with pytest.raises(LLMCallError, match="malformed"):
        one_completion(step, llm, monkeypatch, stream="1")


def test_more_cached_tokens_than_the_prompt_had_are_cut_to_the_prompt(llm, monkeypatch):
    for stream in ("0", "1"):
        step = Step("hello", prompt_tokens=2000, timings={**LLAMA_TIMINGS, "cache_n": 999_999})
        reply = one_completion(step, llm, monkeypatch, stream)
        assert (reply.prompt_tokens, reply.cached_prompt_tokens) == (2000, 2000)


def test_ask_json_and_trace_show_the_cached_prompt_tokens(llm, pandora, examples):
    with llm(llama_step(RIGHT)):
        run = pandora(
            "ask",
            "How many albums are there?",
            "--source",
            str(examples / "music.sqlite"),
            "--json",
            "--trace",
        )
    assert run.exit_code == 0, run.stderr
    answer = json.loads(run.stdout)
    assert (answer["prompt_tokens"], answer["cached_prompt_tokens"]) == (2000, 1800)
    code_lines = [line for line in run.stderr.splitlines() if "[generate_code] code:" in line]
    assert code_lines and "prompt_tokens=2000 cached_prompt_tokens=1800" in code_lines[0]
