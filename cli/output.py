"""How every command reports: one JSON object with --json, text otherwise.

Exit codes (DESIGN.md): 0 success, 1 the work ran and failed, 2 bad usage or
bad input. Messages for people go to stderr on one line; with --json, stdout
carries exactly one JSON object whatever happens.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click
from pydantic import BaseModel
from rich.console import Console

from plugins.errors import BadInputError, PandoraError

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2

stderr_console = Console(stderr=True)

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout."
)


def print_json(payload: BaseModel | dict[str, Any]) -> None:
    """Write `payload` as one JSON object on stdout."""
    if isinstance(payload, BaseModel):
        click.echo(payload.model_dump_json())
    else:
        click.echo(json.dumps(payload, ensure_ascii=False, default=str))


def fail(message: str, as_json: bool, exit_code: int, error_type: str) -> NoReturn:
    """Report `message` (one line on stderr; a JSON error object with --json) and exit."""
    one_line = " ".join(message.split())
    if as_json:
        print_json({"error": {"type": error_type, "message": one_line}})
    click.echo(f"pandora: error: {one_line}", err=True)
    sys.exit(exit_code)


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn Pandora's errors raised by `command` into the CLI's exit codes.

    The wrapped command must take the `as_json` keyword (from `json_option`).
    """

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return command(*args, **kwargs)
        except BadInputError as error:
            fail(str(error), as_json, EXIT_BAD_INPUT, "BadInput")
        except PandoraError as error:
            fail(str(error), as_json, EXIT_FAILED, type(error).__name__)

    return wrapper
