"""`pandora eval`: answer a benchmark's questions with the agent and write a report."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import Progress

from cli.output import json_option, print_json, reports_errors
from evaluation.datasets import TASKS, read_dataset
from evaluation.selection import (
    only_databases,
    only_questions,
    run_order,
    sample_examples,
    split_by_database,
)
from plugins.errors import BadInputError


@click.command("eval")
@click.argument("dataset", type=click.Path(path_type=Path))
@click.option("--task", type=click.Choice(TASKS), required=True, help="Format of DATASET.")
@click.option("--split", default=None, help="Split or file stem (dev, sample-300, ...).")
@click.option("--sample", "sample_size", type=click.IntRange(min=1), help="Questions to ask.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the sampling.")
@click.option("--output", type=click.Path(path_type=Path), help="Folder of results and report.")
@click.option(
    "--config",
    "configuration_names",
    multiple=True,
    help="Configuration to run (repeat); default: pandora.",
)
@click.option("--ablations", is_flag=True, help="Add the ablation grid.")
@click.option("--baselines", is_flag=True, help="Add text-to-SQL and direct answering.")
@click.option(
    "--database", "databases", multiple=True, help="Only questions on this database (repeat)."
)
@click.option("--by-database", is_flag=True, help="Only databases `memory build` left out.")
@click.option(
    "--question", "questions", multiple=True, help="Only this question of the sample (repeat)."
)
@click.option("--representation", default=None, help="Representation of the pandora run.")
@click.option(
    "-k",
    "demonstrations",
    type=click.IntRange(min=0),
    default=None,
    help="Demonstrations retrieved per question (default: the model's).",
)
@click.option(
    "--attempts",
    type=click.IntRange(min=1),
    default=None,
    help="Code attempts per candidate (L; default: the model's).",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(min=0),
    help="Start no question after this long; the report covers what was answered.",
)
@json_option
@reports_errors
def eval_command(
    dataset: Path,
    task: str,
    split: str | None,
    sample_size: int | None,
    seed: int,
    output: Path | None,
    configuration_names: tuple[str, ...],
    ablations: bool,
    baselines: bool,
    databases: tuple[str, ...],
    by_database: bool,
    questions: tuple[str, ...],
    representation: str | None,
    demonstrations: int | None,
    attempts: int | None,
    max_seconds: float | None,
    as_json: bool,
) -> None:
    """Evaluate the agent on DATASET (a benchmark folder, or a JSON-lines file for
    WebQSP/GrailQA). Results go to OUTPUT/results.jsonl as they come (a rerun
    resumes), then OUTPUT/report.md and its charts. A run stopped by --max-seconds
    reports what it answered and says it is partial; the same command resumes it."""
    from agent import AgentContext, configured_chat_model
    from evaluation.configurations import ABLATIONS, BASELINES, CONFIGURATIONS, applicable
    from evaluation.report import summarise, write_report
    from evaluation.runner import run_evaluation

    names = list(dict.fromkeys(configuration_names or ("pandora",)))
    names += [n for n in (ABLATIONS if ablations else ()) if n not in names]
    names += [n for n in (BASELINES if baselines else ()) if n not in names]
    unknown = [name for name in names if name not in CONFIGURATIONS]
    if unknown:
        raise BadInputError(
            f"unknown configuration {unknown[0]!r}; known: {', '.join(CONFIGURATIONS)}"
        )
    configurations = [CONFIGURATIONS[name] for name in names if applicable(name, task)]  # type: ignore[arg-type]
    examples = read_dataset(task, dataset, split)  # type: ignore[arg-type]
    if databases:
        examples = only_databases(examples, databases)
    if by_database:
        examples = split_by_database(examples, seed, "eval")
    examples = sample_examples(examples, seed, count=sample_size)
    if questions:
        examples = only_questions(examples, questions)
    if not examples:
        raise BadInputError(f"{dataset}: no {task} questions to evaluate")
    folder = output or Path("pandora-eval") / f"{task}-{split or 'default'}-seed{seed}"
    base = AgentContext(
        demonstrations=demonstrations,
        max_attempts=attempts,
        representation=representation,
        chat_model=configured_chat_model(),
    )
    total = len(examples) * len(configurations)
    with Progress(console=Console(stderr=True), transient=True) as progress:
        bar = progress.add_task(f"{task}: {len(examples)} questions", total=total)
        results = run_evaluation(
            run_order(examples, seed),
            configurations,
            folder,
            base,
            lambda _: progress.advance(bar),
            max_seconds=max_seconds,
        )
    asked = {example.id for example in examples}
    kept = [r for r in results if r.id in asked and r.configuration in names]
    # A resumed run's file holds its configurations in the order they were first
    # run; the report follows the order asked, and pairs the others with the first.
    results = sorted(kept, key=lambda r: names.index(r.configuration))
    answered = len({r.id for r in results})
    partial = len(results) < total
    title = f"{task} ({len(examples)} questions, seed {seed})"
    if partial:
        title = (
            f"{task} (partial: {answered} of {len(examples)} questions answered, seed {seed}; "
            "the same command resumes)"
        )
    report = write_report(results, folder, title)
    summaries = summarise(results)
    if as_json:
        print_json(
            {
                "report": str(report),
                "results": str(folder / "results.jsonl"),
                "questions": len(examples),
                "answered": answered,
                "stopped_by": "time" if partial else None,
                "configurations": [s.model_dump() for s in summaries],
            }
        )
        return
    if partial:
        click.echo(f"stopped by --max-seconds: {answered} of {len(examples)} questions answered")
    for summary in summaries:
        click.echo(
            f"{summary.configuration}: {summary.accuracy:.1%} of {summary.questions} "
            f"(95% CI {summary.interval[0]:.1%}–{summary.interval[1]:.1%}), "
            f"{summary.llm_calls_per_question:.2f} LLM calls, "
            f"{summary.computed_prompt_tokens_per_question:.0f} prompt tokens computed, "
            f"{summary.generated_tokens_per_question:.0f} generated and "
            f"{summary.seconds_per_question:.1f} s per question "
            f"(median {summary.median_seconds:.1f})"
        )
    click.echo(f"report: {report}")
