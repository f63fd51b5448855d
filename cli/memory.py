"""`pandora memory ...`: add, remove, search, list, stats, export, import,
reindex, verify.

Shapes follow DESIGN.md's CLI contract. A command that fails leaves the store
as it was: `add` verifies before it opens the store, `import --on-error stop`
validates and re-runs every line before it writes one, `export` writes a
temporary file and renames it into place. What `add` stores has origin `cli`
(a person on this machine added it); what `import` stores has origin `import`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import click
from pydantic import JsonValue, ValidationError

from cli.code_runs import read_code
from cli.output import json_option, print_json, print_warning, reports_errors
from memory.models import KINDS, VERIFICATIONS, Demonstration, FocusSpec
from memory.retrieval import MODES, search_demonstrations
from memory.settings import MemorySettings
from memory.store import DemonstrationStore
from plugins.errors import BadInputError, PandoraError


class DemonstrationRefused(PandoraError):
    """`memory add` ran the code and it did not earn a verification."""


@click.group("memory")
def memory_group() -> None:
    """The demonstration memory: verified examples retrieved for every question."""


def _open_store(load_seed: bool = True) -> DemonstrationStore:
    return DemonstrationStore.open(MemorySettings.from_env(), load_seed=load_seed)


@memory_group.command("add")
@click.option("--question", required=True, help="The question the code answers.")
@click.option("--code", "code_file", required=True, help="File with the code, or - for stdin.")
@click.option(
    "--source",
    "sources",
    multiple=True,
    required=True,
    help="Source path or URL the code runs on (repeat for several).",
)
@click.option(
    "--representation",
    default="pandas",
    show_default=True,
    help="What the code is written for: pandas, sql or networkx.",
)
@click.option("--reasoning", default="", help="The reasoning steps, as text.")
@click.option(
    "--answer",
    "answer_json",
    help="The expected answer as JSON (rows, a list of values, or one value).",
)
@click.option("--entities", multiple=True, help="KG topic entity (repeat for several).")
@click.option(
    "--hops",
    type=click.IntRange(0, 4),
    default=2,
    show_default=True,
    help="KG: how many hops around --entities the code was shown.",
)
@click.option("--dataset", default="", help="Which dataset or task it belongs to.")
@click.option("--approved", is_flag=True, help="A person checked the answer.")
@click.option("--unverified", is_flag=True, help="Keep it even if the code fails or differs.")
@json_option
@reports_errors
def add_command(
    question: str,
    code_file: str,
    sources: tuple[str, ...],
    representation: str,
    reasoning: str,
    answer_json: str | None,
    entities: tuple[str, ...],
    hops: int,
    dataset: str,
    approved: bool,
    unverified: bool,
    as_json: bool,
) -> None:
    """Run the code on the sources and store it as a demonstration.

    It is refused when the code fails, returns nothing, or differs from
    --answer, unless --unverified is given.
    """
    from memory.verification import build_demonstration  # loads sources: pandas and plugins

    code = read_code(code_file)
    expected = parse_answer(answer_json) if answer_json is not None else None
    demonstration, outcome = build_demonstration(
        question=question,
        code=code,
        locations=list(sources),
        representation=representation,
        origin="cli",
        reasoning=reasoning,
        focus=FocusSpec(entities=list(entities), hops=hops) if entities else None,
        expected=expected,
        approved=approved,
        dataset=dataset,
    )
    if not outcome.passed and not unverified:
        raise DemonstrationRefused(f"not added: {outcome.problem} (use --unverified to keep it)")
    demonstration.sources = [_absolute(s) for s in sources]
    result = _open_store().add(demonstration)
    payload = {
        "id": result.id,
        "verified": result.verified,
        "answer": demonstration.answer,
        "added": result.added,
    }
    if outcome.problem:
        payload["problem"] = outcome.problem
    if as_json:
        print_json(payload)
    else:
        state = "added" if result.added else "already stored"
        click.echo(f"{result.id} {state} ({result.verified}): {demonstration.answer}")


@memory_group.command("remove")
@click.argument("demonstration_id", metavar="ID")
@json_option
@reports_errors
def remove_command(demonstration_id: str, as_json: bool) -> None:
    """Delete the demonstration ID (as `memory list` shows it)."""
    if not _open_store(load_seed=False).remove(demonstration_id):
        raise BadInputError(f"no demonstration has id {demonstration_id!r} (see `memory list`)")
    if as_json:
        print_json({"removed": demonstration_id})
    else:
        click.echo(f"removed {demonstration_id}")


@memory_group.command("search")
@click.argument("question")
@click.option(
    "-k",
    "k",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="How many demonstrations to return.",
)
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    help="The kind of source the question is about (needed by --mode same).",
)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="cross",
    show_default=True,
    help="cross: any kind; same: only --kind; random: K at random (an ablation).",
)
@click.option("--representation", help="Only demonstrations for this representation.")
@json_option
@reports_errors
def search_command(
    question: str,
    k: int,
    kind: str | None,
    mode: str,
    representation: str | None,
    as_json: bool,
) -> None:
    """The K demonstrations most similar to QUESTION (--kind is the question's
    kind: `same` mode keeps only that kind)."""
    hits = search_demonstrations(
        _open_store(), question, k, kind=kind, mode=mode, representation=representation
    )
    if as_json:
        print_json({"demonstrations": [hit.summary() for hit in hits]})
        return
    for hit in hits:
        demo = hit.demonstration
        click.echo(
            f"{hit.score:.3f}  [{demo.kind}/{demo.representation}, {demo.verified} "
            f"from {demo.origin}] {demo.question}"
        )


@memory_group.command("list")
@click.option("--kind", type=click.Choice(KINDS), help="Only demonstrations of this kind.")
@click.option("--representation", help="Only demonstrations for this representation.")
@click.option("--dataset", help="Only demonstrations of this dataset.")
@click.option(
    "--verified", type=click.Choice(VERIFICATIONS), help="Only demonstrations verified so."
)
@click.option("--limit", type=click.IntRange(min=1), help="Show at most N.")
@json_option
@reports_errors
def list_command(
    kind: str | None,
    representation: str | None,
    dataset: str | None,
    verified: str | None,
    limit: int | None,
    as_json: bool,
) -> None:
    """List stored demonstrations (negative and stale ones included, marked)."""
    filters = {"kind": kind, "representation": representation, "dataset": dataset}
    filters["verified"] = verified
    conditions: list[dict[str, Any]] = [{k: v} for k, v in filters.items() if v]
    where = (
        None if not conditions else conditions[0] if len(conditions) == 1 else {"$and": conditions}
    )
    demonstrations = _open_store().find(where, limit)
    rows = [
        {
            "id": d.id,
            "question": d.question,
            "kind": d.kind,
            "representation": d.representation,
            "verified": d.verified,
            "origin": d.origin,
            "dataset": d.dataset,
            "negative": d.negative,
            "stale": d.stale,
        }
        for d in demonstrations
    ]
    if as_json:
        print_json({"demonstrations": rows, "count": len(rows)})
        return
    for row in rows:
        marks = " (negative)" * row["negative"] + " (stale)" * row["stale"]
        click.echo(f"{row['id']}  [{row['kind']}/{row['representation']}] {row['question']}{marks}")


@memory_group.command("stats")
@json_option
@reports_errors
def stats_command(as_json: bool) -> None:
    """How many demonstrations, by kind, verification and representation."""
    stats = _open_store().stats()
    payload = {
        "count": stats.count,
        "by_kind": stats.by_kind,
        "embedding": stats.embedding,
        "by_verified": stats.by_verified,
        "by_representation": stats.by_representation,
        "negative": stats.negative,
        "stale": stats.stale,
        "location": stats.location,
    }
    if as_json:
        print_json(payload)
        return
    for key, value in payload.items():
        click.echo(f"{key}: {value}")


@memory_group.command("export")
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@reports_errors
def export_command(file: str, as_json: bool) -> None:
    """Write every demonstration to FILE as JSONL (one per line)."""
    target = Path(file)
    if not target.parent.exists():
        raise BadInputError(f"{file}: folder {target.parent} does not exist")
    store = _open_store()
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
    ) as handle:
        temporary = Path(handle.name)
        try:
            count = 0
            for demonstration in store.iter_all():
                handle.write(demonstration.to_json_line() + "\n")
                count += 1
        except BaseException:
            handle.close()
            temporary.unlink(missing_ok=True)
            raise
    os.replace(temporary, target)
    if as_json:
        print_json({"exported": count, "file": str(target)})
    else:
        click.echo(f"exported {count} demonstrations to {target}")


@memory_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--on-error",
    type=click.Choice(["skip", "stop"]),
    default="stop",
    show_default=True,
    help="A line that does not validate or whose re-run fails: skip it, or import nothing.",
)
@json_option
@reports_errors
def import_command(file: str, on_error: str, as_json: bool) -> None:
    """Add the demonstrations of a JSONL FILE, each re-run on its sources first.

    Only what the re-run establishes is kept (origin `import`, at most
    `executed`): the file's verification, fingerprint and dates are ignored.
    Duplicates are skipped by id.
    """
    from memory.importing import already_kept, reestablish_records  # loads pandas and plugins

    records, problems = read_jsonl(Path(file))
    if problems and on_error == "stop":
        _refuse_import(file, problems)
    store = _open_store()
    kept = already_kept(records, store)
    to_run = [(line, record) for line, record in records if record.id not in kept]
    with _progress("memory import: re-running", len(to_run)) as advance:
        demonstrations, refused = reestablish_records(to_run, on_progress=advance)
    problems = sorted(problems + refused)
    if problems and on_error == "stop":
        _refuse_import(file, problems)
    for line, message in problems:
        print_warning(f"{file}:{line}: skipped: {message}")
    counts = store.add_many(demonstrations)
    duplicates = counts.duplicates + len(records) - len(to_run)
    payload = {
        "imported": counts.added,
        "replaced": counts.replaced,
        "duplicates": duplicates,
        "skipped": [{"line": line, "error": message} for line, message in problems],
    }
    if as_json:
        print_json(payload)
    else:
        click.echo(
            f"imported {counts.added}, replaced {counts.replaced}, "
            f"duplicates {duplicates}, skipped {len(problems)}"
        )


def _refuse_import(file: str, problems: list[tuple[int, str]]) -> NoReturn:
    line, message = problems[0]
    raise BadInputError(
        f"{file}:{line}: {message} ({len(problems)} lines refused; nothing imported; "
        "--on-error skip imports the others)"
    )


@contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on stderr (gone when done); yields `advance(done, total)`."""
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task(label, total=total)
        yield lambda done, _total: progress.update(bar, completed=done)


@memory_group.command("reindex")
@json_option
@reports_errors
def reindex_command(as_json: bool) -> None:
    """Re-embed every demonstration with the configured embedding (PANDORA_EMBEDDING)."""
    store = _open_store(load_seed=False)
    previous = store.recorded_embedding
    count = store.reindex()
    payload = {"reindexed": count, "embedding": store.embedding_identity, "previous": previous}
    if as_json:
        print_json(payload)
    else:
        click.echo(f"re-embedded {count} demonstrations: {previous} -> {store.embedding_identity}")


@memory_group.command("verify")
@click.option("--source", "sources", multiple=True, help="Only demonstrations on these sources.")
@click.option("--no-rerun", is_flag=True, help="Flag changed schemas stale without re-running.")
@json_option
@reports_errors
def verify_command(sources: tuple[str, ...], no_rerun: bool, as_json: bool) -> None:
    """Re-run every demonstration on its sources and flag stale those that no
    longer return their stored answer (--no-rerun: those whose schema changed)."""
    from memory.staleness import recheck_demonstrations  # loads sources: pandas and plugins

    store = _open_store()
    with _progress("memory verify", store.count()) as advance:
        report = recheck_demonstrations(
            store, only_sources=list(sources) or None, reverify=not no_rerun, on_progress=advance
        )
    if as_json:
        print_json(report.summary())
    else:
        for key, value in report.summary().items():
            click.echo(f"{key}: {value}")


def parse_answer(text: str) -> list[list[JsonValue]]:
    """An expected answer from JSON: rows, a list of values, or one value
    (values keep their JSON types, as results do)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInputError(f"--answer is not valid JSON: {error}") from error
    if not isinstance(value, list):
        return [[value]]
    return [item if isinstance(item, list) else [item] for item in value]


def read_jsonl(path: Path) -> tuple[list[tuple[int, Demonstration]], list[tuple[int, str]]]:
    """The valid demonstrations of a JSONL file with their line numbers, and
    (line number, error) of the others."""
    if not path.is_file():
        raise BadInputError(f"{path}: no such file")
    demonstrations: list[tuple[int, Demonstration]] = []
    problems: list[tuple[int, str]] = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                demonstrations.append((number, Demonstration.model_validate_json(line)))
            except ValidationError as error:
                problems.append((number, _validation_message(error)))
    return demonstrations, problems


def _validation_message(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "line"
    return f"{where}: {first['msg']}"


def _absolute(location: str) -> str:
    return location if "://" in location else str(Path(location).resolve())


from cli.memory_build import build_command  # noqa: E402  (its own module: learning from datasets)

memory_group.add_command(build_command)
