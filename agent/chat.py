"""One chat completion: the request (structured where the server accepts
it), the reply's text and its token counts, and LLM failures as one error.

Of the prompt tokens, those the server took from its prompt cache cost
almost nothing: OpenAI's `usage.prompt_tokens_details.cached_tokens` says how
many (llama.cpp sends it too), else llama.cpp's `timings.cache_n`
(`agent.llm_timings`), else none are known to be cached.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from agent.llm_deadline import MALFORMED_REPLY_ERRORS, failure_reason
from agent.llm_timings import ServerTimings, TimingsRecord, count, recording_timings
from plugins.errors import PandoraError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

_lock = threading.Lock()
_servers_refusing_json_schema: set[str] = set()


class LLMCallError(PandoraError):
    """The LLM did not answer (timeout, refused, unreachable) after its retries."""

    def __init__(self, error_type: str, message: str):
        super().__init__(message)
        self.error_type = error_type


@dataclass(frozen=True)
class Reply:
    """The text of one completion and the tokens it cost: `cached_prompt_tokens`
    of the `prompt_tokens` came from the server's prompt cache (0: none, or
    the server does not say), the others it computed."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cached_prompt_tokens: int = 0


def complete(
    model: BaseChatModel,
    messages: list[dict[str, str]],
    reply_schema: dict[str, Any] | None,
    temperature: float = 0.0,
    seed: int | None = None,
    stop: Sequence[str] = (),
) -> Reply:
    """Ask `model` for one completion of `messages`, ending where it first
    writes one of the `stop` strings (which the reply leaves out).

    With a `reply_schema`, OpenAI-compatible servers are asked for JSON that
    follows it (`response_format` `json_schema`); a server that refuses it
    (HTTP 400) is remembered and asked in plain text from then on. Without
    one the reply is plain text. `temperature` above 0 samples (a `seed`
    makes the sample repeatable where the server honours it). Any other
    failure after the client's own retries raises `LLMCallError`.
    """
    with recording_timings() as timings:
        return _complete(model, messages, reply_schema, temperature, seed, stop, timings)


def _complete(
    model: BaseChatModel,
    messages: list[dict[str, str]],
    reply_schema: dict[str, Any] | None,
    temperature: float,
    seed: int | None,
    stop: Sequence[str],
    timings: TimingsRecord,
) -> Reply:
    import openai

    server = _server_key(model)
    sampling = _sampling(temperature, seed) if server is not None else {}
    if stop:
        sampling["stop"] = list(stop)
    try:
        if (
            reply_schema is not None
            and server is not None
            and server not in _servers_refusing_json_schema
        ):
            try:
                return _reply(
                    model.invoke(messages, response_format=_json_schema(reply_schema), **sampling),
                    timings.last,
                )
            except openai.LengthFinishReasonError as error:
                return _cut_reply(error, timings.last)
            except openai.BadRequestError as error:
                if "ContextOverflow" in type(error).__name__:
                    raise
                with _lock:
                    _servers_refusing_json_schema.add(server)
        return _reply(model.invoke(messages, **sampling), timings.last)
    except (openai.APITimeoutError, httpx.TimeoutException) as error:
        raise LLMCallError(
            "LLMTimeout", f"the LLM did not answer in time: {failure_reason(error)}"
        ) from None
    except (openai.APIError, httpx.HTTPError) as error:
        raise LLMCallError("LLMError", f"the LLM request failed: {failure_reason(error)}") from None
    except MALFORMED_REPLY_ERRORS as error:
        message = f"the LLM's reply is malformed: {_one_line(error)}"
        raise LLMCallError("LLMError", message) from None


def _server_key(model: BaseChatModel) -> str | None:
    """Which OpenAI-compatible server and model `model` talks to; None for
    other chat models (they get plain-text prompts)."""
    base_url = getattr(model, "openai_api_base", None)
    name = getattr(model, "model_name", None)
    if not hasattr(model, "openai_api_base"):
        return None
    return f"{base_url}|{name}"


def _sampling(temperature: float, seed: int | None) -> dict[str, Any]:
    """The request's sampling arguments (the client's own are greedy)."""
    if temperature <= 0:
        return {}
    return {"temperature": temperature, **({"seed": seed} if seed is not None else {})}


def _json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema}}


def _reply(message: Any, timings: ServerTimings | None) -> Reply:
    usage = getattr(message, "usage_metadata", None) or {}
    content = message.content
    if isinstance(content, list):
        content = "".join(
            part.get("text", "") if isinstance(part, dict) else str(part) for part in content
        )
    prompt_tokens = int(usage.get("input_tokens", 0))
    details = usage.get("input_token_details") or {}
    return Reply(
        text=str(content),
        prompt_tokens=prompt_tokens,
        completion_tokens=int(usage.get("output_tokens", 0)),
        cached_prompt_tokens=_cached(details.get("cache_read"), timings, prompt_tokens),
    )


def _cut_reply(error: Any, timings: ServerTimings | None) -> Reply:
    """A structured reply the server cut at its token limit, as the text it had:
    the client refuses to parse it, but it is an attempt (the parser's feedback
    says the reply was unreadable), not an LLM failure."""
    completion = error.completion
    usage = completion.usage
    text = (completion.choices[0].message.content or "") if completion.choices else ""
    prompt_tokens = usage.prompt_tokens if usage else 0
    details = getattr(usage, "prompt_tokens_details", None)
    return Reply(
        text=text,
        prompt_tokens=prompt_tokens,
        completion_tokens=usage.completion_tokens if usage else 0,
        cached_prompt_tokens=_cached(
            getattr(details, "cached_tokens", None), timings, prompt_tokens
        ),
    )


def _cached(reported: object, timings: ServerTimings | None, prompt_tokens: int) -> int:
    """The prompt tokens served from the cache: the standard `cached_tokens`
    where the server sent a usable one, else llama.cpp's `cache_n`, else 0;
    never more than the prompt, so that the tokens computed are never negative."""
    cached = count(reported)
    if cached is None and timings is not None:
        cached = timings.cache_n
    return int(min(cached or 0, max(prompt_tokens, 0)))


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]
