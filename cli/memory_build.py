"""`pandora memory build`: learn demonstrations from a labelled dataset."""

from __future__ import annotations

import os
from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress

from cli.output import json_option, print_json, reports_errors
from evaluation.datasets import TASKS, read_dataset
from evaluation.selection import (
    only_databases,
    sample_examples,
    split_by_database,
    without_databases_of,
)


@click.command("build")
@click.argument("dataset", type=click.Path(path_type=Path))
@click.option("--task", type=click.Choice(TASKS), required=True, help="Format of DATASET.")
@click.option("--split", default=None, help="Split or file stem (default: the reader's).")
@click.option("--fraction", type=click.FloatRange(0, 1, min_open=True), help="Share of samples.")
@click.option("--sample", "sample_size", type=click.IntRange(min=1), help="Number of samples.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampling.")
@click.option(
    "--database", "databases", multiple=True, help="Only questions on this database (repeat)."
)
@click.option("--by-database", is_flag=True, help="Only databases `eval --by-database` leaves out.")
@click.option(
    "--hold-out",
    "held_out_splits",
    multiple=True,
    help="Leave out every database this split's questions use (the one you evaluate; repeat).",
)
@click.option("--max-llm-calls", type=click.IntRange(min=0), help="Stop after this many calls.")
@click.option("--max-tokens", type=click.IntRange(min=0), help="Stop after this many tokens.")
@click.option("--max-seconds", type=click.FloatRange(min=0), help="Stop after this long.")
@click.option("--no-llm", is_flag=True, help="Stage 1 with the translator only.")
@click.option(
    "--corrections",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    help="LLM retries shown the gold answer, per sample.",
)
@click.option("--journal", type=click.Path(path_type=Path), help="Progress file (resumes a build).")
@click.option(
    "-k",
    "demonstrations",
    type=click.IntRange(min=0),
    default=10,
    show_default=True,
    help="Demonstrations shown per LLM prompt.",
)
@json_option
@reports_errors
def build_command(
    dataset: Path,
    task: str,
    split: str | None,
    fraction: float | None,
    sample_size: int | None,
    seed: int,
    databases: tuple[str, ...],
    by_database: bool,
    held_out_splits: tuple[str, ...],
    max_llm_calls: int | None,
    max_tokens: int | None,
    max_seconds: float | None,
    no_llm: bool,
    corrections: int,
    journal: Path | None,
    demonstrations: int,
    as_json: bool,
) -> None:
    """Build the memory from DATASET's labelled questions: SQL-labelled ones (Spider)
    through the translator, then the LLM with the gold SQL; others (tables, KGs)
    annotated by the LLM and kept only when the answer matches the gold one.
    Rerunning with the same --journal resumes."""
    from evaluation.agent_runs import AgentAnnotator, build_sample
    from evaluation.scoring import score_answer
    from memory.building import Budget, Journal, MemoryBuilder
    from memory.settings import MemorySettings
    from memory.store import DemonstrationStore

    examples = read_dataset(task, dataset, split)  # type: ignore[arg-type]
    if databases:
        examples = only_databases(examples, databases)
    if by_database:
        examples = split_by_database(examples, seed, "build")
    for held_out in held_out_splits:
        examples = without_databases_of(examples, read_dataset(task, dataset, held_out))  # type: ignore[arg-type]
    examples = sample_examples(examples, seed, count=sample_size, fraction=fraction)
    by_id = {example.id: example for example in examples}
    home = Path(os.environ.get("PANDORA_HOME") or "~/.pandora").expanduser()
    journal_path = journal or home / "builds" / f"{task}-{split or 'default'}-seed{seed}.jsonl"
    store = DemonstrationStore.open(MemorySettings.from_env())
    annotator = None
    if not no_llm:
        from agent import AgentContext, configured_chat_model

        context = AgentContext(
            demonstrations=demonstrations, chat_model=configured_chat_model(), store=store
        )
        annotator = AgentAnnotator(context)
    samples = [build_sample(example) for example in examples]
    with Progress(console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task(f"memory build: {task}", total=len(samples))
        builder = MemoryBuilder(
            store=store,
            budget=Budget(max_llm_calls, max_tokens, max_seconds),
            journal=Journal(journal_path),
            annotator=annotator,
            matcher=lambda sample, rows, gold: score_answer(by_id[sample.id], rows, gold).correct,
            corrections=corrections,
            on_progress=lambda _: progress.advance(bar),
        )
        report = builder.build(samples)
    if as_json:
        print_json(report)
        return
    click.echo(
        f"{report.translated} translated, {report.annotated} annotated by the LLM, "
        f"{report.rejected} rejected, {report.untranslatable} left untranslated, "
        f"{report.failed} failed, {report.skipped} done before; {report.llm_calls} LLM calls, "
        f"{report.tokens} tokens, {report.seconds:.0f} s"
        + (f"; stopped by the {report.stopped_by} budget" if report.stopped_by else "")
    )
