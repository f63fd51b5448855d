"""What `pandora run` and `pandora graph` share: reading code, reporting its execution."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from cli.output import EXIT_FAILED, print_json
from plugins.errors import BadInputError
from plugins.executor import ExecutionResult


def read_code(code_path: str) -> str:
    """The program text from a file, or from stdin for `-`."""
    if code_path == "-":
        return sys.stdin.read()
    path = Path(code_path)
    if not path.is_file():
        raise BadInputError(f"{code_path}: no such code file")
    return path.read_text(encoding="utf-8")


def report_execution(
    outcome: ExecutionResult, as_json: bool, soft_answer: list[list[str]] | None = None
) -> None:
    """Print the outcome (JSON, or rows as tab-separated lines) and exit 1 if the code failed.

    A `soft_answer` (KG2Code: stated by the code's last comment) is reported,
    marked soft, when the code failed.
    """
    if as_json:
        payload: dict[str, Any] = {
            "result": outcome.result,
            "error": outcome.error.model_dump() if outcome.error else None,
            "stdout": outcome.stdout,
            "elapsed_ms": outcome.elapsed_ms,
            "truncated": outcome.truncated,
        }
        if soft_answer is not None:
            payload.update({"soft_answer": soft_answer, "soft": True})
        print_json(payload)
    else:
        click.echo(outcome.stdout, nl=False, err=True)
        for row in outcome.result or soft_answer or []:
            click.echo("\t".join(row))
    if outcome.error:
        line = f" (line {outcome.error.line})" if outcome.error.line else ""
        click.echo(f"pandora: {outcome.error.type}{line}: {outcome.error.message}", err=True)
        if soft_answer is not None:
            click.echo("pandora: the rows shown are the soft answer of its last comment", err=True)
        sys.exit(EXIT_FAILED)
