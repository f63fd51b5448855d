"""How every command reports: one JSON object with --json, text otherwise.

Exit codes (DESIGN.md): 0 success, 1 the work ran and failed, 2 bad usage or
bad input. Messages for people go to stderr on one line, always in the form
`pandora: <Type>: message`; with --json, stdout carries exactly one JSON
object whatever happens.

Text meant for a terminal goes through `plugins.terminal_text.terminal_safe`.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from plugins.errors import BadInputError, PandoraError
from plugins.terminal_text import UNSAFE_CHARACTERS, terminal_safe

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2

BAD_INPUT = "BadInput"

if TYPE_CHECKING:
    from pydantic import BaseModel

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print exactly one JSON object on stdout."
)


def one_line(text: str) -> str:
    """`text` on one terminal-safe line: every run of whitespace becomes one space."""
    return terminal_safe(" ".join(str(text).split()))


def error_line(error_type: str, message: str) -> str:
    """The one stderr line of an error: `pandora: <Type>: message`.

    Both parts are flattened to one line, so neither a program's exception
    type nor its message can start a second `pandora:` line.
    """
    return f"pandora: {one_line(error_type) or 'Error'}: {one_line(message)}"


def print_error_line(error_type: str, message: str) -> None:
    """Write the one line of an error on stderr."""
    click.echo(error_line(error_type, message), err=True)


def print_warning(message: str) -> None:
    """Write a one-line warning on stderr: `pandora: warning: message`."""
    click.echo(f"pandora: warning: {one_line(message)}", err=True)


def print_json(payload: BaseModel | dict[str, Any]) -> None:
    """Write `payload` as one JSON object on stdout.

    JSON escapes C0 controls itself; DEL, C1 controls and bidirectional
    overrides are written as `\\u` escapes too, so that the object is safe on
    a terminal and decodes to exactly the same data.
    """
    if not isinstance(payload, dict):
        text = payload.model_dump_json()
    else:
        text = json.dumps(payload, ensure_ascii=False, default=str)
    click.echo(UNSAFE_CHARACTERS.sub(_json_escape, text))


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def error_payload(error_type: str, message: str) -> dict[str, Any]:
    """The JSON object of a command that failed before producing anything."""
    return {"error": {"type": error_type, "message": " ".join(message.split())}}


def fail(message: str, as_json: bool, exit_code: int, error_type: str) -> NoReturn:
    """Report `message` (one line on stderr; a JSON error object with --json) and exit."""
    if as_json:
        print_json(error_payload(error_type, message))
    print_error_line(error_type, message)
    sys.exit(exit_code)


def reports_errors(command: Callable[..., Any]) -> Callable[..., Any]:
    """Turn Pandora's errors raised by `command` into the CLI's exit codes.

    The wrapped command must take the `as_json` keyword (from `json_option`).
    An unexpected exception is a bug: with --json its JSON error object is
    still printed, then the traceback follows on stderr.
    """

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return command(*args, **kwargs)
        except BadInputError as error:
            fail(str(error), as_json, EXIT_BAD_INPUT, BAD_INPUT)
        except PandoraError as error:
            fail(str(error), as_json, EXIT_FAILED, type(error).__name__)
        except (click.ClickException, click.exceptions.Exit):
            raise  # usage errors and exits are click's to report
        except Exception as error:
            if as_json:
                print_json(error_payload(type(error).__name__, str(error)))
            raise

    return wrapper


class CommandLineError(click.ClickException):
    """A usage error (unknown option, missing argument...) reported like every
    other error: one line on stderr, one JSON object with --json, exit code 2."""

    def __init__(self, error: click.ClickException, as_json: bool):
        super().__init__(error.format_message())
        self.exit_code = error.exit_code
        self.as_json = as_json
        context = getattr(error, "ctx", None)
        self.help_hint = f" (see {context.command_path} --help)" if context else ""

    def show(self, file: Any = None) -> None:
        """Print the JSON object (with --json) and the one stderr line."""
        message = self.format_message() + self.help_hint
        if self.as_json:
            print_json(error_payload("UsageError", message))
        print_error_line("UsageError", message)


def tab_separated(cells: list[str]) -> str:
    """One line of cells; a tab or newline inside a cell is shown escaped, so
    that it can neither split a cell nor start a row."""
    escaped = (cell.replace("\t", "\\t").replace("\n", "\\n") for cell in cells)
    return terminal_safe("\t".join(escaped))


OUTPUT_FORMATS = (".csv", ".md", ".json")


def _check_output_format(
    context: click.Context, parameter: click.Parameter, value: str | None
) -> str | None:
    if value is None:
        return None
    from pathlib import Path

    path = Path(value)
    if path.suffix.lower() not in OUTPUT_FORMATS:
        formats = ", ".join(OUTPUT_FORMATS)
        raise click.BadParameter(f"{value!r} must end in {formats} (the format written)")
    if path.is_dir() or not path.parent.is_dir():
        raise click.BadParameter(f"{value!r} is not a file in an existing folder")
    return value


output_option = click.option(
    "--output",
    "output_path",
    metavar="FILE",
    callback=_check_output_format,
    help="Also write the result rows to FILE, as .csv, .md or .json (by its extension).",
)


def check_output_is_not_a_source(output_path: str | None, sources: Sequence[str]) -> None:
    """Refuse, before any work, an --output that would overwrite one of the sources."""
    if output_path is None:
        return
    from pathlib import Path

    target = Path(output_path).resolve()
    for source in sources:
        if Path(source).resolve() == target:
            raise BadInputError(f"--output {output_path}: is a source; write the rows elsewhere")


def write_output(output_path: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Write `rows` (JSON values) named by `columns` to `output_path`, in the format
    its extension names, replacing the file in one step; say so on stderr."""
    from pathlib import Path

    from cli.result_files import render_result_file

    path = Path(output_path)
    text = render_result_file(path.suffix.lower(), list(columns), [list(row) for row in rows])
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8", newline="")
        partial.replace(path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise BadInputError(f"--output {output_path}: cannot write: {error.strerror}") from None
    click.echo(f"pandora: wrote {len(rows)} row(s) to {one_line(output_path)}", err=True)


def print_answer_sentence(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """The answer in one sentence on stderr, when the rows have a simple shape
    (`plugins.answer_sentence`); stdout keeps only the rows, for scripts."""
    from plugins.answer_sentence import answer_sentence

    sentence = answer_sentence(columns, rows)
    if sentence is not None:
        click.echo(terminal_safe(sentence), err=True)
