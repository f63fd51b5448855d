"""One chat completion: the request (structured where the server accepts
it), the reply's text and its token counts, and LLM failures as one error."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from agent.llm_deadline import MALFORMED_REPLY_ERRORS, failure_reason
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
    """The text of one completion and the tokens it cost."""

    text: str
    prompt_tokens: int
    completion_tokens: int


def complete(
    model: BaseChatModel,
    messages: list[dict[str, str]],
    reply_schema: dict[str, Any] | None,
    temperature: float = 0.0,
    seed: int | None = None,
) -> Reply:
    """Ask `model` for one completion of `messages`.

    With a `reply_schema`, OpenAI-compatible servers are asked for JSON that
    follows it (`response_format` `json_schema`); a server that refuses it
    (HTTP 400) is remembered and asked in plain text from then on. Without
    one the reply is plain text. `temperature` above 0 samples (a `seed`
    makes the sample repeatable where the server honours it). Any other
    failure after the client's own retries raises `LLMCallError`.
    """
    import openai

    server = _server_key(model)
    sampling = _sampling(temperature, seed) if server is not None else {}
    try:
        if (
            reply_schema is not None
            and server is not None
            and server not in _servers_refusing_json_schema
        ):
            try:
                return _reply(
                    model.invoke(messages, response_format=_json_schema(reply_schema), **sampling)
                )
            except openai.LengthFinishReasonError as error:
                return _cut_reply(error)
            except openai.BadRequestError as error:
                if "ContextOverflow" in type(error).__name__:
                    raise
                with _lock:
                    _servers_refusing_json_schema.add(server)
        return _reply(model.invoke(messages, **sampling))
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


def _reply(message: Any) -> Reply:
    usage = getattr(message, "usage_metadata", None) or {}
    content = message.content
    if isinstance(content, list):
        content = "".join(
            part.get("text", "") if isinstance(part, dict) else str(part) for part in content
        )
    return Reply(
        text=str(content),
        prompt_tokens=int(usage.get("input_tokens", 0)),
        completion_tokens=int(usage.get("output_tokens", 0)),
    )


def _cut_reply(error: Any) -> Reply:
    """A structured reply the server cut at its token limit, as the text it had:
    the client refuses to parse it, but it is an attempt (the parser's feedback
    says the reply was unreadable), not an LLM failure."""
    completion = error.completion
    usage = completion.usage
    text = (completion.choices[0].message.content or "") if completion.choices else ""
    return Reply(
        text=text,
        prompt_tokens=usage.prompt_tokens if usage else 0,
        completion_tokens=usage.completion_tokens if usage else 0,
    )


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())[:300]
