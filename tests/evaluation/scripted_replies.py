"""Replies of a scripted model for the memory builder's and the evaluation's tests,
served by the fake OpenAI-compatible server of tests/fake_openai.py: each
function reads what a request asks (its question, the kind of answer) or
writes a reply in the shape the agent's prompts ask for."""

from __future__ import annotations

import json
from typing import Any


def last_user_message(messages: list[dict[str, Any]]) -> str:
    """The text of the last user message of a request."""
    for message in reversed(messages):
        if message.get("role") == "user":
            content = message.get("content")
            return content if isinstance(content, str) else json.dumps(content)
    return ""


def code_reply(code: str, reasoning: str = "scripted") -> str:
    """A reply in the JSON shape the agent's prompt asks for."""
    return json.dumps({"reasoning": reasoning, "code": code})


def question_of(messages: list[dict[str, Any]]) -> str:
    """The question the agent asks: the text after the last `## Question` heading of the
    last user message, up to the next heading."""
    text = last_user_message(messages)
    after = text.rsplit("## Question", 1)[-1]
    return after.split("\n## ", 1)[0].strip()


def mode_of(messages: list[dict[str, Any]]) -> str:
    """What the system prompt asks for: pandas, sql, networkx or direct (no code)."""
    opening = str(messages[0].get("content", ""))[:160] if messages else ""
    for mode, words in (("pandas", "pandas code"), ("sql", "SQL"), ("networkx", "NetworkX")):
        if words in opening:
            return mode
    return "direct"


def direct_reply(answer: str) -> str:
    """A reply of the direct-answer baseline."""
    return json.dumps({"reasoning": "scripted", "answer": [answer]})
