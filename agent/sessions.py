"""Sessions: the last few answered questions kept under a name, so that a
follow-up ("and for 2019?") is asked with them.

A session is one JSON file, `$PANDORA_HOME/sessions/NAME.json`, readable by
its owner only, holding the last `MAX_TURNS` answered turns, each part
capped: it stays a few kilobytes however long the session runs. The
earlier programs came from a model and the questions from a user: the prompt
quotes them (`agent.prompts`); nothing here runs them. A program cache hit
is not taken for a question asked in a session (its meaning depends on the
turns before it).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from plugins.errors import BadInputError

if TYPE_CHECKING:
    from agent.answer import Answer
    from plugins import Workspace

MAX_TURNS = 3
QUESTION_CHARACTERS = 300
REASONING_CHARACTERS = 300
CODE_CHARACTERS = 1500
MAX_SOURCES = 16
SOURCE_NAME_CHARACTERS = 100
MAX_FILE_BYTES = 64 * 1024
"""Far more than MAX_TURNS capped turns take: a bigger file is not one Pandora wrote."""
SESSION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
SESSION_NAME_RULE = "1 to 64 letters, digits, '-' or '_', starting with a letter or digit"


class SessionTurn(BaseModel):
    """One answered question of a session, as the next prompt quotes it."""

    question: str
    sources: list[str]
    """The names of the sources it was asked over."""
    representation: str
    reasoning: str = ""
    code: str


class Session(BaseModel):
    """The file of a session: its last turns, oldest first."""

    turns: list[SessionTurn] = []


def session_path(name: str) -> Path:
    """The file of session `name`; a name that could leave the sessions
    folder (a path, `..`, a hidden file) is a `BadInputError`."""
    if not SESSION_NAME.fullmatch(name):
        raise BadInputError(f"session name {name[:80]!r} is not valid: use {SESSION_NAME_RULE}")
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    return home / "sessions" / f"{name}.json"


def earlier_turns(name: str) -> list[SessionTurn]:
    """The turns session `name` holds, oldest first (none for a new session)."""
    path = session_path(name)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return []
    except OSError as error:
        raise BadInputError(f"session {name!r} cannot be read: {error.strerror}") from None
    try:
        if len(data) > MAX_FILE_BYTES:
            raise ValueError("too big")
        return Session.model_validate_json(data).turns
    except (ValidationError, ValueError):
        raise BadInputError(
            f"session {name!r} is not a Pandora session file: delete sessions/{name}.json "
            "in PANDORA_HOME to start it again"
        ) from None


def answered_turn(question: str, workspace: Workspace, answer: Answer) -> SessionTurn | None:
    """The turn to keep for `answer`, each part capped; None when no program
    answered (a failure gives the next question nothing to build on)."""
    if answer.error is not None or not answer.code:
        return None
    return SessionTurn(
        question=question[:QUESTION_CHARACTERS],
        sources=[source.name[:SOURCE_NAME_CHARACTERS] for source in workspace.sources][
            :MAX_SOURCES
        ],
        representation=answer.representation,
        reasoning=answer.reasoning[:REASONING_CHARACTERS],
        code=answer.code[:CODE_CHARACTERS],
    )


def record_turn(name: str, turn: SessionTurn) -> None:
    """Add `turn` to session `name`, keeping its last MAX_TURNS turns. The
    file is replaced whole, so a reader never sees half of it; of two
    questions answered at once in one session, the later write wins."""
    path = session_path(name)
    turns = [*earlier_turns(name), turn][-MAX_TURNS:]
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(Session(turns=turns).model_dump_json())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
