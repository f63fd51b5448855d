"""The chat model the agent talks to, chosen from the environment.

In order: `OPENAI_BASE_URL` / `OPENAI_API_KEY` (any OpenAI-compatible server:
OpenAI, vLLM, Ollama, llama.cpp) with `PANDORA_MODEL` as the model name;
else `PANDORA_MODEL=provider:model` through LangChain's `init_chat_model`;
else the local model of the `local` extra; else `LLMNotConfiguredError`.
Every model gets retries with backoff on 429 and 5xx (the OpenAI client's
own retry loop); OpenAI-compatible ones also a deadline for each whole
request and a cap on its reply's bytes (`agent.llm_deadline`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import httpx

from plugins.errors import BadInputError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

LOCAL_MODEL_NAME = "local"
DEFAULT_TIMEOUT_SECONDS = 300.0
LOCAL_TIMEOUT_SECONDS = 1800.0
"""The local model computes on this machine's CPU: on two slow cores a long
prompt and a full reply take several minutes (docs/evaluation.md measured 15
prompt and 7 reply tokens per second), and a retry after a timeout starts over."""
LIST_MODELS_SECONDS = 10.0
DEFAULT_RETRIES = 3
MAX_REPLY_TOKENS = 1024
"""A reply is reasoning and one program: a cap stops a model that loops."""

HOW_TO_CONFIGURE = (
    "no LLM is configured: set OPENAI_BASE_URL (and OPENAI_API_KEY, PANDORA_MODEL) for an "
    "OpenAI-compatible server, or PANDORA_MODEL=provider:model, or install the local model "
    "with: pip install 'pandora-skr[local]'"
)


class LLMNotConfiguredError(BadInputError):
    """No LLM is configured and the local model is not installed."""


@dataclass(frozen=True)
class LLMSettings:
    """The LLM settings of the environment."""

    model: str | None
    base_url: str | None
    api_key: str | None
    timeout_seconds: float | None
    """None: not set, so 300 s for a remote server and 1800 s for the local model."""
    retries: int
    stream: bool
    local_model_allowed: bool

    @property
    def request_timeout_seconds(self) -> float:
        """The timeout of one request: the set one, else the remote default."""
        return DEFAULT_TIMEOUT_SECONDS if self.timeout_seconds is None else self.timeout_seconds

    @classmethod
    def from_env(cls) -> LLMSettings:
        """Read `PANDORA_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`,
        `PANDORA_LLM_TIMEOUT` (seconds a whole request may take; by default 300, or 1800
        for the local model), `PANDORA_LLM_RETRIES`,
        `PANDORA_LLM_STREAM` (1 streams replies) and `PANDORA_LOCAL_MODEL`
        (`off`: never start the local model, e.g. on a shared server)."""
        return cls(
            model=os.environ.get("PANDORA_MODEL") or None,
            base_url=os.environ.get("OPENAI_BASE_URL") or None,
            api_key=os.environ.get("OPENAI_API_KEY") or None,
            timeout_seconds=_number("PANDORA_LLM_TIMEOUT", None),
            retries=int(_number("PANDORA_LLM_RETRIES", DEFAULT_RETRIES) or 0),
            stream=os.environ.get("PANDORA_LLM_STREAM", "") in ("1", "true", "yes"),
            local_model_allowed=os.environ.get("PANDORA_LOCAL_MODEL", "") not in ("off", "0"),
        )


def configured_chat_model(settings: LLMSettings | None = None) -> BaseChatModel:
    """The chat model the environment configures (see the module docstring).

    Raises `LLMNotConfiguredError` (a bad-input error: exit 2) with one line
    saying how to configure one when there is none.
    """
    settings = settings or LLMSettings.from_env()
    if settings.model == LOCAL_MODEL_NAME:
        return local_chat_model(settings)
    if settings.base_url or settings.api_key:
        model = settings.model or _served_model(settings.base_url)
        return openai_compatible_model(settings, model, settings.base_url, settings.api_key)
    if settings.model and ":" in settings.model:
        return _provider_model(settings)
    if settings.model:
        raise LLMNotConfiguredError(
            f"PANDORA_MODEL={settings.model!r} names no provider: use provider:model "
            "(e.g. openai:gpt-4o-mini), or set OPENAI_BASE_URL for an OpenAI-compatible server"
        )
    from agent.local_model import local_model_installed

    if settings.local_model_allowed and local_model_installed():
        return local_chat_model(settings)
    raise LLMNotConfiguredError(HOW_TO_CONFIGURE)


_model_names: dict[LLMSettings, str | None] = {}


def configured_model_name(settings: LLMSettings | None = None) -> str | None:
    """The name of the model `configured_chat_model` returns, None when no
    LLM is configured: what a run's defaults depend on when it was given no
    chat model. Remembered per settings (naming a served model asks the server)."""
    settings = settings or LLMSettings.from_env()
    if settings not in _model_names:
        try:
            model = configured_chat_model(settings)
        except LLMNotConfiguredError:
            return None
        _model_names[settings] = getattr(model, "model_name", None)
    return _model_names[settings]


def openai_compatible_model(
    settings: LLMSettings,
    model: str,
    base_url: str | None,
    api_key: str | None,
    http_client: httpx.Client | None = None,
    extra_body: dict[str, object] | None = None,
) -> BaseChatModel:
    """A ChatOpenAI client of one OpenAI-compatible server, deterministic
    (temperature 0), with the settings' deadline, retries and streaming;
    `http_client` None sends straight to `base_url` (`agent.llm_deadline`)."""
    from langchain_openai import ChatOpenAI

    from agent.llm_deadline import deadline_http_client

    seconds = settings.request_timeout_seconds
    return ChatOpenAI(
        model=model,
        base_url=base_url,
        api_key=api_key or "not-needed",
        temperature=0,
        timeout=seconds,
        max_retries=settings.retries,
        streaming=settings.stream,
        stream_usage=True,
        max_tokens=MAX_REPLY_TOKENS,
        http_client=http_client or deadline_http_client(base_url, seconds),
        extra_body=extra_body,
    )


def local_chat_model(settings: LLMSettings) -> BaseChatModel:
    """A client of the local model's shared server, which each request finds
    or starts (`agent.local_model.client`); llama.cpp also stops generating
    once the request's deadline has passed."""
    from agent.local_model.client import BASE_URL, local_http_client

    if settings.timeout_seconds is None:
        settings = replace(settings, timeout_seconds=LOCAL_TIMEOUT_SECONDS)
    seconds = settings.request_timeout_seconds
    return openai_compatible_model(
        settings,
        LOCAL_MODEL_NAME,
        BASE_URL,
        "set-per-request",
        http_client=local_http_client(seconds),
        extra_body={"t_max_predict_ms": int(seconds * 1000)},
    )


def _provider_model(settings: LLMSettings) -> BaseChatModel:
    try:
        from langchain.chat_models import init_chat_model  # type: ignore[import-not-found]

        return init_chat_model(
            settings.model,
            temperature=0,
            timeout=settings.request_timeout_seconds,
            max_retries=settings.retries,
        )
    except ImportError as error:
        raise LLMNotConfiguredError(
            f"PANDORA_MODEL={settings.model!r} needs the `langchain` package and the "
            f"provider's own package (pip install langchain langchain-PROVIDER): {error}"
        ) from None
    except ValueError as error:
        raise LLMNotConfiguredError(f"PANDORA_MODEL={settings.model!r}: {error}") from None


def _served_model(base_url: str | None) -> str:
    """The first model an OpenAI-compatible server lists, for servers that
    serve one model (llama.cpp); OpenAI itself needs PANDORA_MODEL."""
    if not base_url:
        raise LLMNotConfiguredError("OPENAI_API_KEY is set but PANDORA_MODEL is not: name a model")
    from agent.llm_deadline import deadline_http_client

    try:
        with deadline_http_client(base_url, LIST_MODELS_SECONDS) as client:
            models = client.get(base_url.rstrip("/") + "/models").json().get("data") or []
        return str(models[0]["id"])
    except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise LLMNotConfiguredError(
            f"OPENAI_BASE_URL={base_url}: set PANDORA_MODEL to the model to use "
            "(the server did not list one)"
        ) from None


def _number(variable: str, default: float | None) -> float | None:
    text = os.environ.get(variable)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        raise BadInputError(f"{variable}={text!r} is not a number") from None
    if value < 0:
        raise BadInputError(f"{variable}={text!r} must not be negative")
    return value
