"""The report of an evaluation: its tables and charts, from recorded results."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from evaluation.report import write_report
from evaluation.runner import ItemResult


def result(configuration: str, position: int, correct: bool) -> ItemResult:
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
