"""Error messages as a client's LLM should read them: plain text, no terminal
colours, no paths of the server's machine, bad arguments in one sentence."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import ValidationError

TERMINAL_ESCAPE = re.compile(r"(?:\x1b|\\x1b|\\u001b|\\033)\[[0-9;?]*[A-Za-z]")
"""A terminal colour or style code, raw or already escaped as text (`\\x1b[4m`)."""
SHOWN_VALUE_CHARS = 60


def readable(message: str, names_by_location: Mapping[str, str]) -> str:
    """`message` without terminal codes (a SQL parser underlines the bad token
    with them), each source's location replaced by its name."""
    plain = TERMINAL_ESCAPE.sub("", message)
    for location in sorted(names_by_location, key=len, reverse=True):
        plain = plain.replace(location, f"source {names_by_location[location]!r}")
    return plain


def argument_problems(tool: str, error: ValidationError) -> str:
    """The validation errors of a call's arguments as one sentence naming each
    argument, what is wrong with it and the value given."""
    problems = []
    for problem in error.errors(include_url=False):
        argument = ".".join(str(part) for part in problem["loc"]) or "arguments"
        if problem["type"] == "missing":
            problems.append(f"`{argument}` is required")
            continue
        reason = problem["msg"].removeprefix("Value error, ")
        given = repr(problem.get("input"))
        if len(given) > SHOWN_VALUE_CHARS:
            given = given[: SHOWN_VALUE_CHARS - 1] + "…"
        problems.append(f"`{argument}`: {reason[:1].lower()}{reason[1:]} (got {given})")
    return f"Bad arguments for {tool}: " + "; ".join(problems) + "."
