"""Verifying a demonstration by running its code on its sources.

Code runs only in the executor (`plugins.executor.execute`): never in this
process. The verification level says what was established:
- `gold`: it ran and returned the expected answer given with it;
- `approved`: it ran and returned rows, and a person approved it;
- `executed`: it ran and returned rows;
- `unverified`: it was not shown to work (kept only when asked to).

The origin (who is storing it) caps that level: an MCP client's or an
imported file's demonstration is at most `executed` (`ORIGIN_CEILING`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import JsonValue

from memory.fingerprints import schema_fingerprint
from memory.limits import DemonstrationTooLarge, size_problem
from memory.models import Demonstration, FocusSpec, Kind, Origin, Verification
from plugins import Focus, Workspace, get_registry, load_source
from plugins.executor.results import render_value
from plugins.sources import url_scheme

DEFAULT_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class VerificationOutcome:
    """What running a demonstration's code established.

    `problem` is None when the demonstration passed, else one line saying why
    it would be refused (the code failed, returned nothing, or differed from
    the expected answer).
    """

    verified: Verification
    answer: list[list[JsonValue]]
    problem: str | None

    @property
    def passed(self) -> bool:
        """Whether the code ran and its answer was accepted."""
        return self.problem is None


def open_workspace(locations: Sequence[str], base_dir: Path | None = None) -> Workspace:
    """A workspace of the sources at `locations` (relative paths against `base_dir`)."""
    return Workspace.of(load_source(resolve_location(loc, base_dir)) for loc in locations)


def resolve_location(location: str, base_dir: Path | None = None) -> str:
    """A URL as it is; a relative path made absolute against `base_dir` (or the
    current folder), so the same file is recognised however it was named."""
    if url_scheme(location):
        return location
    path = Path(location).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    return str(path.resolve())


def demonstration_locations(
    demonstration: Demonstration, base_dir: Path | None = None
) -> tuple[str, ...]:
    """Where a stored demonstration's sources are now: relative paths against
    `base_dir`, else the seed's against examples/, else the current folder."""
    from memory.seed import SEED_DATASET, examples_dir

    folder = base_dir or (examples_dir() if demonstration.dataset == SEED_DATASET else None)
    return tuple(resolve_location(location, folder) for location in demonstration.sources)


def to_focus(spec: FocusSpec | None, question: str) -> Focus | None:
    """The plugins' `Focus` for a stored focus (None when there is none)."""
    if spec is None:
        return None
    return Focus(question=question, entities=tuple(spec.entities), hops=spec.hops)


def structure_schema(workspace: Workspace, representation: str, focus: Focus | None) -> str:
    """The structure-only schema the LLM sees for `workspace` in `representation`."""
    return get_registry().representation(representation).render_schema(workspace, focus)


def workspace_kind(workspace: Workspace) -> Kind:
    """The kind of a question over `workspace`: kg or database when any source
    is one, else table."""
    kinds = {source.kind for source in workspace.sources}
    for kind in ("kg", "database"):
        if kind in kinds:
            return kind  # type: ignore[return-value]
    return "table"


def verify_code(
    code: str,
    workspace: Workspace,
    representation: str,
    focus: Focus | None = None,
    expected: list[list[JsonValue]] | None = None,
    approved: bool = False,
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS,
) -> VerificationOutcome:
    """Run `code` in the executor and judge its answer (see the module docstring)."""
    from plugins.executor import execute

    run = execute(
        code,
        workspace,
        representation=representation,
        focus=focus,
        timeout_seconds=timeout_seconds,
    )
    if run.error is not None:
        problem = f"the code failed: {run.error.type}: {run.error.message}"
        if run.error.line:
            problem += f" (line {run.error.line})"
        return VerificationOutcome("unverified", [], problem)
    answer = run.result or []
    if expected is not None:
        if answers_match(answer, expected):
            return VerificationOutcome("gold", answer, None)
        return VerificationOutcome(
            "unverified",
            answer,
            f"the answer differs from the expected one: got {_short(answer)}, "
            f"expected {_short(expected)}",
        )
    if not answer:
        return VerificationOutcome("unverified", answer, "the code returned no rows")
    return VerificationOutcome("approved" if approved else "executed", answer, None)


def build_demonstration(
    *,
    question: str,
    code: str,
    locations: Sequence[str],
    representation: str,
    origin: Origin,
    reasoning: str = "",
    focus: FocusSpec | None = None,
    expected: list[list[JsonValue]] | None = None,
    approved: bool = False,
    dataset: str = "",
    base_dir: Path | None = None,
) -> tuple[Demonstration, VerificationOutcome]:
    """Load the sources, render the schema, run the code, and return the
    demonstration with the verification it earned (the caller decides whether
    a failed verification is stored as `unverified` or refused).

    Text over the memory's size caps is refused before anything runs.
    """
    problem = size_problem(question, reasoning, code, expected or [])
    if problem is not None:
        raise DemonstrationTooLarge(problem)
    return demonstration_on_workspace(
        open_workspace(locations, base_dir),
        question=question,
        code=code,
        locations=locations,
        representation=representation,
        origin=origin,
        reasoning=reasoning,
        focus=focus,
        expected=expected,
        approved=approved,
        dataset=dataset,
    )


def demonstration_on_workspace(
    workspace: Workspace,
    *,
    question: str,
    code: str,
    locations: Sequence[str],
    representation: str,
    origin: Origin,
    reasoning: str = "",
    focus: FocusSpec | None = None,
    expected: list[list[JsonValue]] | None = None,
    approved: bool = False,
    dataset: str = "",
) -> tuple[Demonstration, VerificationOutcome]:
    """`build_demonstration` on sources already opened (`locations` is how the
    demonstration names them)."""
    plugin_focus = to_focus(focus, question)
    schema = structure_schema(workspace, representation, plugin_focus)
    outcome = verify_code(code, workspace, representation, plugin_focus, expected, approved)
    answer = outcome.answer if outcome.passed or expected is None else expected
    demonstration = Demonstration(
        question=question,
        kind=workspace_kind(workspace),
        representation=representation,
        schema=schema,
        schema_fingerprint=schema_fingerprint(schema),
        reasoning=reasoning,
        code=code,
        answer=answer,
        dataset=dataset,
        verified=outcome.verified,
        origin=origin,
        sources=list(locations),
        focus=focus,
    )
    return demonstration, outcome


def answers_match(got: list[list[JsonValue]], expected: list[list[JsonValue]]) -> bool:
    """Whether two answers hold the same rows, in any order.

    Cells are compared through the executor's text rendering
    (`render_value`), so an answer stored as text before results kept their
    JSON types ("3") equals the same answer now (3). Then they compare after
    trimming and case-folding, and numbers by value ("3", "3.0" and "3.000"
    are equal; floats to 6 decimal places).
    """
    return sorted(_row_key(row) for row in got) == sorted(_row_key(row) for row in expected)


def _row_key(row: list[JsonValue]) -> tuple[str, ...]:
    return tuple(_cell_key(cell) for cell in row)


def _cell_key(cell: JsonValue) -> str:
    text = render_value(cell).strip()
    try:
        number = float(text.replace(",", "")) if text else math.nan
    except ValueError:
        return text.casefold()
    if math.isnan(number):
        return text.casefold()
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return repr(round(number, 6))


def _short(answer: list[list[JsonValue]], limit: int = 120) -> str:
    text = repr(answer)
    return text if len(text) <= limit else text[: limit - 3] + "..."
