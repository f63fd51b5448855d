"""The evaluation report: markdown tables and PNG charts from results.jsonl.

Per configuration: accuracy with its 95% Wilson interval, the mean metric,
LLM calls, prompt tokens computed (those the server took from its prompt
cache left out), tokens generated, mean and median seconds per question,
and the error categories of the wrong answers; TempTabQA-C adds accuracy per
variant and the counterfactual gap; each other configuration is paired with
the first on the questions both answered (the exact sign test says whether
their difference is more than chance, and the median of the first's seconds
over this one's, question by question, is the cost of the first in units of
this one); a per-database table shows where the questions came from.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from evaluation.metrics import counterfactual_gap, sign_test, wilson_interval
from evaluation.runner import ItemResult
from evaluation.scoring import ERROR_CATEGORIES, METRIC_NAMES

CHARTS = ("accuracy.png", "errors.png", "cost.png")


class ConfigurationSummary(BaseModel):
    """The figures of one configuration."""

    configuration: str
    questions: int
    correct: int
    accuracy: float
    interval: tuple[float, float]
    mean_score: float
    llm_calls_per_question: float
    prompt_tokens_per_question: float
    computed_prompt_tokens_per_question: float
    generated_tokens_per_question: float
    seconds_per_question: float
    median_seconds: float
    errors: dict[str, int]
    by_variant: dict[str, float] = {}
    counterfactual_gap: float | None = None


class PairedComparison(BaseModel):
    """One configuration against the reference one, question by question."""

    configuration: str
    reference: str
    questions: int
    both_right: int
    only_reference_right: int
    only_this_right: int
    sign_test_p: float
    median_seconds_ratio: float | None
    """The median, over the questions both answered, of the reference's
    seconds divided by this configuration's: how many times this one's time
    the reference takes on the same question (None when no question has
    time recorded for both)."""


def summarise(results: Sequence[ItemResult]) -> list[ConfigurationSummary]:
    """One summary per configuration, in the order they first appear."""
    grouped: dict[str, list[ItemResult]] = defaultdict(list)
    for result in results:
        grouped[result.configuration].append(result)
    return [_summary(name, items) for name, items in grouped.items()]


def compare_paired(results: Sequence[ItemResult]) -> list[PairedComparison]:
    """Every configuration after the first against the first, on the questions
    both answered: accuracies of unpaired samples overlap long before a
    question-by-question difference stops being chance."""
    answered: dict[str, dict[tuple[str, str | None], ItemResult]] = defaultdict(dict)
    for result in results:
        answered[result.configuration][(result.id, result.variant)] = result
    if not answered:
        return []
    reference, *others = answered
    comparisons = []
    for name in others:
        shared = answered[reference].keys() & answered[name].keys()
        pairs = [(answered[reference][key], answered[name][key]) for key in shared]
        only_reference = sum(first.correct and not second.correct for first, second in pairs)
        only_this = sum(second.correct and not first.correct for first, second in pairs)
        ratios = [first.seconds / second.seconds for first, second in pairs if second.seconds > 0]
        comparisons.append(
            PairedComparison(
                configuration=name,
                reference=reference,
                questions=len(pairs),
                both_right=sum(first.correct and second.correct for first, second in pairs),
                only_reference_right=only_reference,
                only_this_right=only_this,
                sign_test_p=sign_test(only_this, only_reference),
                median_seconds_ratio=statistics.median(ratios) if ratios else None,
            )
        )
    return comparisons


def _summary(name: str, items: list[ItemResult]) -> ConfigurationSummary:
    count = len(items)
    correct = sum(item.correct for item in items)
    by_variant: dict[str, float] = {}
    for variant in sorted({item.variant for item in items if item.variant}):
        chosen = [item for item in items if item.variant == variant]
        by_variant[variant] = sum(item.correct for item in chosen) / len(chosen)
    gap = None
    if {"original", "counterfactual"} <= by_variant.keys():
        gap = counterfactual_gap(by_variant["original"], by_variant["counterfactual"])
    errors = Counter(item.category for item in items if item.category)
    return ConfigurationSummary(
        configuration=name,
        questions=count,
        correct=correct,
        accuracy=correct / count,
        interval=wilson_interval(correct, count),
        mean_score=sum(item.score for item in items) / count,
        llm_calls_per_question=sum(item.llm_calls for item in items) / count,
        prompt_tokens_per_question=sum(item.prompt_tokens for item in items) / count,
        computed_prompt_tokens_per_question=sum(_computed(item) for item in items) / count,
        generated_tokens_per_question=sum(item.completion_tokens for item in items) / count,
        seconds_per_question=sum(item.seconds for item in items) / count,
        median_seconds=statistics.median(item.seconds for item in items),
        errors={category: errors.get(category, 0) for category in ERROR_CATEGORIES},
        by_variant=by_variant,
        counterfactual_gap=gap,
    )


def _computed(item: ItemResult) -> int:
    """The prompt tokens the server computed for one question."""
    return item.prompt_tokens - min(item.cached_prompt_tokens, item.prompt_tokens)


def _computed_cell(summary: ConfigurationSummary) -> str:
    """The computed prompt tokens, with the prompt tokens sent when the cache served some."""
    computed = f"{summary.computed_prompt_tokens_per_question:.0f}"
    sent = f"{summary.prompt_tokens_per_question:.0f}"
    return computed if computed == sent else f"{computed} (of {sent} sent)"


def write_report(results: Sequence[ItemResult], folder: Path, title: str) -> Path:
    """Write report.md and the charts into `folder`; returns the report's path."""
    summaries = summarise(results)
    task = results[0].task if results else ""
    lines = [f"# {title}", "", f"Metric: {METRIC_NAMES.get(task, 'accuracy')}.", ""]
    lines += [
        "| configuration | questions | accuracy | 95% CI | mean metric | LLM calls/q "
        "| computed prompt tokens/q | generated tokens/q | seconds/q | median s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.configuration} | {s.questions} | {s.accuracy:.1%} | "
            f"{s.interval[0]:.1%}–{s.interval[1]:.1%} | {s.mean_score:.3f} | "
            f"{s.llm_calls_per_question:.2f} | {_computed_cell(s)} | "
            f"{s.generated_tokens_per_question:.0f} | {s.seconds_per_question:.1f} | "
            f"{s.median_seconds:.1f} |"
        )
    if any(s.by_variant for s in summaries):
        lines += [
            "",
            "| configuration | original | counterfactual | gap (points) |",
            "|---|---|---|---|",
        ]
        for s in summaries:
            gap = f"{s.counterfactual_gap:.2f}" if s.counterfactual_gap is not None else "–"
            lines.append(
                f"| {s.configuration} | {s.by_variant.get('original', 0):.1%} | "
                f"{s.by_variant.get('counterfactual', 0):.1%} | {gap} |"
            )
    lines += _paired_table(compare_paired(results))
    lines += ["", "Errors of the wrong answers:", ""]
    lines += ["| configuration | " + " | ".join(ERROR_CATEGORIES) + " |"]
    lines += ["|---|" + "---|" * len(ERROR_CATEGORIES)]
    for s in summaries:
        lines.append(
            f"| {s.configuration} | "
            + " | ".join(str(s.errors[c]) for c in ERROR_CATEGORIES)
            + " |"
        )
    lines += ["", *_database_table(results), ""]
    lines += [_code_versions(results), ""]
    lines += [f"![{chart}]({chart})" for chart in CHARTS]
    _charts(summaries, folder)
    path = folder / "report.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _paired_table(comparisons: list[PairedComparison]) -> list[str]:
    if not comparisons:
        return []
    reference = comparisons[0].reference
    lines = [
        "",
        f"Paired with {reference} on the questions both answered (exact two-sided sign test "
        f"on the questions only one of the two got right; {reference}'s seconds over this "
        "one's, the median of the per-question ratios):",
        "",
        f"| configuration | questions | both right | only {reference} right "
        f"| only this one right | sign test p | {reference} s / this s |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in comparisons:
        ratio = "–" if c.median_seconds_ratio is None else f"{c.median_seconds_ratio:.2f}x"
        lines.append(
            f"| {c.configuration} | {c.questions} | {c.both_right} | "
            f"{c.only_reference_right} | {c.only_this_right} | {_p_value(c.sign_test_p)} "
            f"| {ratio} |"
        )
    return lines


def _p_value(p: float) -> str:
    """Three decimals, except that a p too small for them reads "< 0.001", not "0.000"."""
    return "< 0.001" if p < 0.0005 else f"{p:.3f}"


def _code_versions(results: Sequence[ItemResult]) -> str:
    """Which commits answered, with their result counts, in the order first used."""
    counts = Counter(result.code_version or "not recorded" for result in results)
    listed = ", ".join(f"{name} ({count})" for name, count in counts.items())
    return f"Code versions (results): {listed}."


def _database_table(results: Sequence[ItemResult]) -> list[str]:
    per_database: dict[tuple[str, str], list[bool]] = defaultdict(list)
    for result in results:
        per_database[(result.database, result.configuration)].append(result.correct)
    configurations = list(dict.fromkeys(result.configuration for result in results))
    databases = sorted({database for database, _ in per_database})
    lines = ["Accuracy per database:", "", "| database | " + " | ".join(configurations) + " |"]
    lines.append("|---|" + "---|" * len(configurations))
    for database in databases:
        cells = []
        for configuration in configurations:
            outcomes = per_database.get((database, configuration), [])
            cells.append(f"{sum(outcomes)}/{len(outcomes)}" if outcomes else "–")
        lines.append(f"| {database} | " + " | ".join(cells) + " |")
    return lines


def _charts(summaries: list[ConfigurationSummary], folder: Path) -> None:
    """accuracy.png (with 95% intervals), errors.png (stacked), cost.png (LLM
    calls, prompt tokens computed and tokens generated, seconds)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    names = [s.configuration for s in summaries]
    positions = range(len(names))
    figure, axis = pyplot.subplots(figsize=(max(4, 1.2 * len(names)), 3.5))
    accuracy = [100 * s.accuracy for s in summaries]
    below = [100 * (s.accuracy - s.interval[0]) for s in summaries]
    above = [100 * (s.interval[1] - s.accuracy) for s in summaries]
    axis.bar(positions, accuracy, yerr=[below, above], capsize=4, color="#4472c4")
    axis.set_xticks(list(positions), names, rotation=30, ha="right")
    axis.set_ylabel("accuracy (%)")
    axis.set_ylim(0, 100)
    figure.tight_layout()
    figure.savefig(folder / "accuracy.png", dpi=100)
    pyplot.close(figure)

    figure, axis = pyplot.subplots(figsize=(max(4, 1.2 * len(names)), 3.5))
    bottom = [0] * len(names)
    for category in ERROR_CATEGORIES:
        counts = [s.errors[category] for s in summaries]
        axis.bar(positions, counts, bottom=bottom, label=category)
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    axis.set_xticks(list(positions), names, rotation=30, ha="right")
    axis.set_ylabel("wrong answers")
    axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(folder / "errors.png", dpi=100)
    pyplot.close(figure)

    figure, (calls, tokens, seconds) = pyplot.subplots(1, 3, figsize=(max(9, 3 * len(names)), 3.5))
    calls.bar(positions, [s.llm_calls_per_question for s in summaries], color="#ed7d31")
    calls.set_ylabel("LLM calls per question")
    computed = [s.computed_prompt_tokens_per_question for s in summaries]
    tokens.bar(positions, computed, color="#4472c4", label="prompt, computed")
    generated = [s.generated_tokens_per_question for s in summaries]
    tokens.bar(positions, generated, bottom=computed, color="#a5a5a5", label="generated")
    tokens.set_ylabel("tokens per question")
    tokens.legend(fontsize=8)
    seconds.bar(positions, [s.seconds_per_question for s in summaries], color="#70ad47")
    seconds.set_ylabel("seconds per question")
    for axis in (calls, tokens, seconds):
        axis.set_xticks(list(positions), names, rotation=30, ha="right")
    figure.tight_layout()
    figure.savefig(folder / "cost.png", dpi=100)
    pyplot.close(figure)
