"""Reading an LLM reply as reasoning + code.

Replies come as the JSON object the prompt asks for (`{"reasoning", "code"}`,
grammar-constrained where the server accepts `response_format`), or as
whatever a model writes instead: JSON with text around it, JSON in a fence,
a fenced code block with prose around it, or bare SQL. A reply with no code
in any of these shapes raises `UnparsableReply`, which the agent turns into an
attempt with feedback.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
SQL_START = re.compile(r"^\s*(SELECT|WITH)\b", re.IGNORECASE)
CODE_LANGUAGES = {"python": ("python", "py", "python3", ""), "sql": ("sql", "sqlite", "")}

REASONING_MAX_CHARACTERS = 400
"""The reasoning is one sentence; a grammar-constrained small model sometimes
repeats a clause in it until the token limit cuts the reply, code never
written, so the schema bounds it and the model must move on to the code."""
REASONING: dict[str, Any] = {"type": "string", "maxLength": REASONING_MAX_CHARACTERS}
WORKED_ARITHMETIC = re.compile(r"[\d\s.,+\-*/()×]+=\s*(?P<result>[^=]+)")
"""An answer that shows its working ("7786640 - 6272571 = 1514069"): the
value is what follows the `=`."""

# Code travels as a list of lines: small models asked for one JSON string
# often join two statements with a space instead of writing "\n".
REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reasoning": REASONING,
        "code": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
    "required": ["reasoning", "code"],
    "additionalProperties": False,
}
# A list, so that an answer of several values is several rows, as a program's
# would be: one string "A, B" can never equal a gold answer of two rows.
DIRECT_ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "reasoning": REASONING,
        "answer": {"type": "array", "items": {"type": "string"}, "minItems": 1},
    },
    "required": ["reasoning", "answer"],
    "additionalProperties": False,
}


class UnparsableReply(ValueError):
    """The reply holds no code the agent can run; the message says what was expected."""


@dataclass(frozen=True)
class ParsedReply:
    """Reasoning (may be empty) and the code of one reply."""

    reasoning: str
    code: str


def parse_reply(text: str, language: str = "python") -> ParsedReply:
    """Reasoning and code from `text` (see the module docstring); `language`
    (python or sql) decides which fenced blocks count as code."""
    document = json_object_in(text)
    if document is not None:
        code = _code_of(document.get("code"), language)
        if code:
            reasoning = str(document.get("reasoning") or "").strip()
            return _without_copied_schema(ParsedReply(reasoning, code), language)
    fenced = _fenced_code(text, language)
    if fenced is not None:
        return _without_copied_schema(fenced, language)
    if language == "sql" and SQL_START.match(text):
        return ParsedReply("", text.strip().rstrip(";").strip())
    raise UnparsableReply(
        'the reply held no code: answer with one JSON object {"reasoning": "...", '
        '"code": ["first line", "second line", ...]}'
    )


@dataclass(frozen=True)
class DirectReply:
    """Reasoning (may be empty) and the values of a direct-answer reply, one
    per row of the answer."""

    reasoning: str
    values: tuple[Any, ...]


def parse_direct_answer(text: str) -> DirectReply:
    """Reasoning and answer values of a direct-answer reply (the no-code
    baseline). A JSON list gives one value per item (numbers stay numbers), a
    JSON string or plain text one value."""
    document = json_object_in(text)
    if document is not None and "answer" in document:
        answer = document["answer"]
        items = answer if isinstance(answer, list) else [answer]
        values = tuple(value for value in map(_answer_value, items) if value != "")
        reasoning = str(document.get("reasoning") or "").strip()
    else:
        values = (text.strip(),) if text.strip() else ()
        reasoning = ""
    if not values:
        raise UnparsableReply(
            'the reply held no answer: reply with {"reasoning": "...", "answer": ["value", ...]}'
        )
    return DirectReply(reasoning, values)


def _answer_value(item: Any) -> Any:
    """One answer value as a JSON cell: numbers stay numbers, text is
    stripped (worked arithmetic to its result), anything nested is written
    as JSON text."""
    if isinstance(item, bool) or item is None:
        return json.dumps(item)
    if isinstance(item, int | float):
        return item
    if isinstance(item, str):
        worked = WORKED_ARITHMETIC.fullmatch(item.strip())
        return worked["result"].strip() if worked else item.strip()
    return json.dumps(item)


def json_object_in(text: str) -> dict[str, Any] | None:
    """The JSON object `text` is, or holds (in a fence, or between the first
    `{` and the last `}` with prose around it); None when there is none."""
    candidates = [text.strip()]
    candidates += [body for language, body in FENCE.findall(text) if language in ("json", "")]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            document = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(document, dict):
            return document
    return None


def _code_of(value: Any, language: str) -> str:
    """The code of a JSON reply: one string, or a list of lines."""
    if isinstance(value, list):
        value = "\n".join(str(line) for line in value)
    if not isinstance(value, str):
        return ""
    return _unfenced(value, language).strip()


def _fenced_code(text: str, language: str) -> ParsedReply | None:
    accepted = CODE_LANGUAGES.get(language, ("",))
    for match in FENCE.finditer(text):
        fence_language, body = match.group(1).lower(), match.group(2)
        if fence_language in accepted and body.strip():
            reasoning = (text[: match.start()] + " " + text[match.end() :]).strip()
            return ParsedReply(" ".join(reasoning.split()), body.strip())
    return None


def _without_copied_schema(reply: ParsedReply, language: str) -> ParsedReply:
    """The reply without statements that copy the schema's placeholders.

    Small models often open their program with the BOX schema itself
    (`singer = pd.DataFrame({...})`): it could only fail (a set holding
    Ellipsis) or replace the data with nothing, never mean anything, so such
    top-level assignments are dropped before the program runs.
    """
    if language != "python":
        return reply
    try:
        tree = ast.parse(reply.code)
    except SyntaxError:
        return reply
    copied = [statement for statement in tree.body if _copies_a_placeholder(statement)]
    if not copied or len(copied) == len(tree.body):
        return reply
    dropped = {
        number
        for statement in copied
        for number in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1)
    }
    lines = reply.code.splitlines()
    kept = [line for number, line in enumerate(lines, start=1) if number not in dropped]
    return ParsedReply(reply.reasoning, "\n".join(kept).strip())


def _copies_a_placeholder(statement: ast.stmt) -> bool:
    """Whether `statement` is `name = pd.DataFrame(...)` with `...` among its arguments."""
    if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Call):
        return False
    function = statement.value.func
    if not (isinstance(function, ast.Attribute) and function.attr == "DataFrame"):
        return False
    return any(
        isinstance(node, ast.Constant) and node.value is Ellipsis
        for node in ast.walk(statement.value)
    )


def _unfenced(code: str, language: str) -> str:
    """Code given inside JSON sometimes still carries its own fence."""
    fenced = _fenced_code(code, language)
    return fenced.code if fenced is not None else code
