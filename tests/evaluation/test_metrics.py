"""Metrics against values computed by hand, normalisation edge cases included."""

from __future__ import annotations

import datetime as dt

import pytest

from evaluation.metrics import (
    answer_f1,
    counterfactual_gap,
    denotation_match,
    execution_match,
    hit_at_1,
    normalise_text,
    sign_test,
    temptabqa_match,
    wilson_interval,
)


def test_execution_match_is_a_multiset_unless_ordered() -> None:
    """Order counts only with ORDER BY; duplicates always count; columns may be permuted."""
    gold = [["Oslo", 2], ["Bergen", 1]]
    assert execution_match([["Bergen", 1], ["Oslo", 2]], gold, ordered=False)
    assert not execution_match([["Bergen", 1], ["Oslo", 2]], gold, ordered=True)
    assert execution_match([[2, "Oslo"], [1, "Bergen"]], gold, ordered=True)
    assert not execution_match([["Oslo", 2], ["Oslo", 2]], gold, ordered=False)
    assert not execution_match([["Oslo", 2]], gold, ordered=False)
    assert execution_match([[2.0000001]], [["2"]], ordered=False)
    assert execution_match([], [], ordered=False)


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("Café  Society", "cafe society"),
        ("“Yes”", "yes"),
        ("1990–91", "1990-91"),
        ("Lions[1]", "lions"),
        ("Lions [note 2]", "lions"),
        ("Ann Berg*", "ann berg"),
        ("Paris (France)", "paris"),
        ("(France)", "(france)"),
        ('"Hey Jude"', "hey jude"),
        ("12†", "12"),
    ],
)
def test_wikitq_string_normalisation(raw: str, normalised: str) -> None:
    """Accents, curly quotes, dashes, citation marks, trailing details, quotes, case."""
    assert normalise_text(raw) == normalised


def test_denotation_match_numbers_dates_and_lists() -> None:
    """Hand-checked cases of the WikiTableQuestions evaluator's rules."""
    assert denotation_match(["3"], ["3.0"])
    assert denotation_match([3], ["3"])
    assert not denotation_match(["3"], ["3.1"])
    assert denotation_match(["Oslo", "Bergen"], ["bergen", "oslo"])
    assert denotation_match(["Oslo", "Oslo", "Bergen"], ["Bergen", "Oslo"])
    assert not denotation_match(["Oslo"], ["Oslo", "Bergen"])
    assert not denotation_match(["Oslo", "Bergen", "Ink"], ["Oslo", "Bergen"])
    assert denotation_match(["2001-05-01"], ["May 1, 2001"], gold_canonical=["2001-05-01"])
    assert denotation_match([dt.date(2001, 5, 1)], ["May 1, 2001"], gold_canonical=["2001-05-01"])
    assert not denotation_match(["2001-05-02"], ["May 1, 2001"], gold_canonical=["2001-05-01"])
    assert denotation_match(["1939/40"], ["1939/40"])
    assert not denotation_match([], ["x"])


def test_hit_at_1_and_f1() -> None:
    """Hit@1 looks at the first answer; F1 = 2PR/(P+R) over answer sets."""
    assert hit_at_1(["Kim Novak", "James Stewart"], ["James Stewart", "Kim Novak"])
    assert not hit_at_1(["Grace Kelly", "Kim Novak"], ["Kim Novak"])
    assert not hit_at_1([], ["Kim Novak"])
    # P = 1/2 (one of two predicted is gold), R = 1/3 -> F1 = 2 * (1/6) / (5/6) = 0.4
    assert answer_f1(["a", "x"], ["a", "b", "c"]) == pytest.approx(0.4)
    assert answer_f1(["a", "b"], ["B", "A"]) == 1.0
    assert answer_f1([], []) == 1.0
    assert answer_f1(["a"], []) == 0.0


def test_temptabqa_exact_match_and_gap() -> None:
    """One normalised answer equal to the gold; the gap in accuracy points."""
    assert temptabqa_match([2016], " 2016")
    assert temptabqa_match(["2016.0"], "2016")
    assert temptabqa_match(["krakow"], "Krakow")
    assert not temptabqa_match(["2016", "2017"], "2016")
    assert temptabqa_match([True], "Yes")
    assert temptabqa_match([False], "no")
    assert not temptabqa_match([True], "No")
    assert not temptabqa_match([1], "Yes"), "SQLite's 1 may be a count: not a yes"
    assert counterfactual_gap(0.80, 0.75) == pytest.approx(5.0)


def test_temptabqa_list_answers_match_as_sets() -> None:
    """A gold answer listing values: its values in any order, as rows or one text."""
    assert temptabqa_match([2014, 2018], "2018, 2014")
    assert temptabqa_match(["2014, 2018"], "2018, 2014")
    assert temptabqa_match(["Singles", "Team"], "Team, Singles")
    duplicated = "Team kumite, Team kumite , Kumite 50 kg"
    assert temptabqa_match(["Team kumite", "Kumite 50 kg"], duplicated)
    assert not temptabqa_match([2014], "2018, 2014"), "one value of two"
    assert not temptabqa_match([2014, 2018, 2020], "2018, 2014"), "one value too many"
    assert not temptabqa_match([1, 500], "1,500"), "a thousands separator is no list"


def test_wilson_interval_by_hand() -> None:
    """8/10: centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.7167, half-width 0.2265."""
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 0.0)


def test_wilson_interval_holds_its_share_at_the_extremes() -> None:
    """0 or all successes: the bound is exactly 0 or 1 (a chart's error bars
    below and above the share are never negative)."""
    for total in range(1, 300):
        for successes in range(total + 1):
            low, high = wilson_interval(successes, total)
            assert low <= successes / total <= high
        assert wilson_interval(0, total)[0] == 0.0
        assert wilson_interval(total, total)[1] == 1.0


def test_sign_test_by_hand() -> None:
    """8 questions to 2: 2 · (C(10,0) + C(10,1) + C(10,2)) / 2¹⁰ = 2 · 56/1024."""
    assert sign_test(8, 2) == pytest.approx(112 / 1024)
    assert sign_test(2, 8) == sign_test(8, 2)
    assert sign_test(19, 8) == pytest.approx(0.0522, abs=1e-4)
    assert sign_test(5, 5) == 1.0
    assert sign_test(0, 0) == 1.0
    assert sign_test(6, 0) == pytest.approx(2 / 64)
