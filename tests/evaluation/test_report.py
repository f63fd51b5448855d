"""The report of an evaluation: its tables and charts, from recorded results."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from evaluation.report import compare_paired, write_report
from evaluation.runner import ItemResult


def result(configuration: str, position: int, correct: bool, seconds: float = 0.0) -> ItemResult:
    return ItemResult(
        configuration=configuration,
        id=f"q{position}",
        task="temptabqa",
        database="athlete",
        variant="original" if position % 2 else "counterfactual",
        question=f"question {position}?",
        correct=correct,
        score=float(correct),
        category=None if correct else "execution error",
        predicted=[["1"]] if correct else [],
        gold=[["1"]],
        seconds=seconds,
    )


def test_a_configuration_with_no_right_answer_or_no_wrong_one_is_charted(tmp_path: Path) -> None:
    """0 of 47 and 47 of 47 (Wilson bounds computed to within 1e-17 of the
    share once made matplotlib refuse the error bars)."""
    results = [result("never", n, False) for n in range(47)]
    results += [result("always", n, True) for n in range(47)]
    report = write_report(results, tmp_path, "temptabqa (47 questions)")
    text = report.read_text(encoding="utf-8")
    assert "| never | 47 | 0.0% | 0.0%–7.6% |" in text
    assert "| always | 47 | 100.0% | 92.4%–100.0% |" in text
    for chart in ("accuracy.png", "errors.png", "cost.png"):
        with Image.open(tmp_path / chart) as image:
            assert image.width > 100 and image.height > 100


def test_configurations_are_paired_with_the_first_on_the_questions_both_answered(
    tmp_path: Path,
) -> None:
    """q0–q9: the reference is right on q0–q5, the other on q4–q9 and on q10,
    which the reference never answered and so does not count."""
    results = [result("pandora", n, n <= 5) for n in range(10)]
    results += [result("sql", n, n >= 4) for n in range(11)]
    (comparison,) = compare_paired(results)
    assert comparison.reference == "pandora"
    assert comparison.configuration == "sql"
    assert comparison.questions == 10
    assert (comparison.both_right, comparison.only_reference_right) == (2, 4)
    assert comparison.only_this_right == 4
    assert comparison.sign_test_p == 1.0
    text = write_report(results, tmp_path, "paired").read_text(encoding="utf-8")
    assert "| sql | 10 | 2 | 4 | 4 | 1.000 |" in text
    assert "only pandora right" in text


def test_a_very_small_sign_test_p_is_not_printed_as_zero(tmp_path: Path) -> None:
    """32 questions only the other gets right, none only the reference: p is 4.7e-10."""
    results = [result("pandora", n, False) for n in range(32)]
    results += [result("direct-answer", n, True) for n in range(32)]
    (comparison,) = compare_paired(results)
    assert 0 < comparison.sign_test_p < 1e-9
    text = write_report(results, tmp_path, "lopsided").read_text(encoding="utf-8")
    assert "| direct-answer | 32 | 0 | 0 | 32 | < 0.001 |" in text


def test_one_configuration_has_no_paired_table(tmp_path: Path) -> None:
    """Nothing to pair a lone configuration with."""
    results = [result("pandora", n, n % 3 == 0) for n in range(6)]
    assert compare_paired(results) == []
    assert "Paired with" not in write_report(results, tmp_path, "alone").read_text()


def test_the_cost_of_the_first_configuration_is_the_median_of_its_per_question_time_ratios(
    tmp_path: Path,
) -> None:
    """The cost target compares seconds on the same question. pandora takes
    20, 30, 90 and 400 s against the direct answer's 10 s each (ratios 2, 3,
    9 and 40: median 6), which the ratio of the mean seconds (135 / 10 = 13.5)
    or of the medians (60 / 10) would not tell apart from a uniform 6x; q4,
    answered by pandora alone, and q5, with no time recorded for the direct
    answer, are left out."""
    pandora_seconds = [20.0, 30.0, 90.0, 400.0, 5.0, 8.0]
    results = [result("pandora", n, True, s) for n, s in enumerate(pandora_seconds)]
    results += [result("direct-answer", n, False, 10.0) for n in range(4)]
    results.append(result("direct-answer", 5, False, 0.0))
    (comparison,) = compare_paired(results)
    assert comparison.median_seconds_ratio == 6.0
    text = write_report(results, tmp_path, "cost").read_text(encoding="utf-8")
    assert "| direct-answer | 5 | 0 | 5 | 0 | 0.062 | 6.00x |" in text
    assert "pandora s / this s" in text
    pandora_line = next(line for line in text.splitlines() if line.startswith("| pandora | 6 |"))
    assert pandora_line.endswith("| 92.2 | 25.0 |")


def test_no_time_recorded_gives_no_ratio(tmp_path: Path) -> None:
    """Results from before seconds were recorded (0.0) leave the ratio empty, not 0."""
    results = [result("pandora", n, n < 2) for n in range(3)]
    results += [result("sql", n, n > 0) for n in range(3)]
    (comparison,) = compare_paired(results)
    assert comparison.median_seconds_ratio is None
    assert "| sql | 3 | 1 | 1 | 1 | 1.000 | – |" in write_report(results, tmp_path, "x").read_text()
