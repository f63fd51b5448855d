"""LangChain chat models that are the MCP client's own model, through sampling.

When the server has no LLM of its own, `ask` still runs Pandora's agent: each
completion the agent needs becomes a `sampling/createMessage` request that the
client answers with its model. How it travels depends on the protocol:

- up to 2025-11-25, the server sends the request in the middle of the call
  (`ClientSamplingChatModel`): the agent's thread waits while the event loop
  sends it and the client replies, at most `sampling_timeout_seconds`;
- from 2026-07-28, a server may not send requests mid-call. The call returns
  an `InputRequiredResult` carrying the request, and the client calls `ask`
  again with its reply. `ReplayedSamplingChatModel` runs the agent again from
  the start, answering the completions it already has from the replies kept
  in the (sealed) request state, until it meets a new one. The agent is
  deterministic given the same replies, so each round gets one step further.
"""

from __future__ import annotations

import hashlib
from typing import Any

import anyio
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from mcp.shared.exceptions import MCPError
from mcp_types import CreateMessageRequestParams, CreateMessageResult, SamplingMessage, TextContent
from pydantic import BaseModel, ConfigDict, PrivateAttr, TypeAdapter

from agent.chat import LLMCallError

DEFAULT_MAX_TOKENS = 2048


class RecordedReply(BaseModel):
    """The client's reply to one sampling request, and which request it answered."""

    fingerprint: str
    text: str
    model: str = ""


RECORDED_REPLIES = TypeAdapter(list[RecordedReply])
"""The client's replies so far, kept in the call's (sealed) request state between rounds."""


class ClientSamplingChatModel(BaseChatModel):
    """Completions sent to the client mid-call (protocol versions up to 2025-11-25);
    a request the client does not answer within `timeout_seconds` is an LLM error."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    context: Any
    """The `Context` of the tool call whose client answers."""
    agent_run: Any
    """The call's `AgentRun`: the way from the agent's thread to the event loop."""
    timeout_seconds: float

    @property
    def _llm_type(self) -> str:
        return "mcp-sampling"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        reply = self.agent_run.call_on_loop(self._ask_client, sampling_request(messages, stop))
        return chat_result(reply_text(reply), reply.model)

    async def _ask_client(self, params: CreateMessageRequestParams) -> CreateMessageResult:
        try:
            with anyio.fail_after(self.timeout_seconds):
                return await self.context.session.create_message(
                    params.messages,
                    max_tokens=params.max_tokens,
                    system_prompt=params.system_prompt,
                    stop_sequences=params.stop_sequences,
                    temperature=params.temperature,
                    related_request_id=self.context.request_id,
                )
        except TimeoutError:
            raise LLMCallError(
                "SamplingTimeout",
                f"the client's model did not answer within {self.timeout_seconds:g} s",
            ) from None
        except MCPError as error:
            raise LLMCallError(
                "SamplingFailed", f"the client's model did not answer: {error}"
            ) from None


class ReplayedSamplingChatModel(BaseChatModel):
    """Completions answered from the client's earlier replies, in order; the
    first request without a reply is kept in `pending` and ends the run."""

    replies: list[RecordedReply]
    _used: int = PrivateAttr(default=0)
    _pending: CreateMessageRequestParams | None = PrivateAttr(default=None)

    @property
    def _llm_type(self) -> str:
        return "mcp-sampling-replay"

    @property
    def pending(self) -> CreateMessageRequestParams | None:
        """The request the client must answer before the agent can go on, if any."""
        return self._pending

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        params = sampling_request(messages, stop)
        if self._used < len(self.replies):
            recorded = self.replies[self._used]
            if recorded.fingerprint == fingerprint(params):
                self._used += 1
                return chat_result(recorded.text, recorded.model)
        if self._pending is None:
            self._pending = params
        raise LLMCallError("SamplingPending", "waiting for the client's model to answer")


def sampling_request(
    messages: list[BaseMessage], stop: list[str] | None = None
) -> CreateMessageRequestParams:
    """The sampling request for LangChain `messages`: system messages become the
    system prompt; the others alternate user and assistant."""
    system = "\n\n".join(_text(m) for m in messages if m.type == "system")
    conversation = [
        SamplingMessage(
            role="assistant" if message.type == "ai" else "user",
            content=TextContent(type="text", text=_text(message)),
        )
        for message in messages
        if message.type != "system"
    ]
    return CreateMessageRequestParams(
        messages=conversation,
        max_tokens=DEFAULT_MAX_TOKENS,
        system_prompt=system or None,
        stop_sequences=stop,
        temperature=0.0,
    )


def fingerprint(params: CreateMessageRequestParams) -> str:
    """A digest of a request, to check a recorded reply answers this very request."""
    return hashlib.sha256(params.model_dump_json().encode()).hexdigest()


def reply_text(reply: CreateMessageResult) -> str:
    """The text of the client's reply (empty when it is not text)."""
    content = reply.content
    return content.text if isinstance(content, TextContent) else ""


def chat_result(text: str, model: str) -> ChatResult:
    """One LangChain generation holding `text`."""
    message = AIMessage(content=text, response_metadata={"model_name": model})
    return ChatResult(generations=[ChatGeneration(message=message)])


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(
        part.get("text", "") if isinstance(part, dict) else str(part) for part in content
    )
