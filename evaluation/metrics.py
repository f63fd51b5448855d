"""The benchmarks' metrics, reimplemented from their published rules.

- **Execution accuracy** (Spider): the predicted query's rows equal the gold
  query's rows as a multiset, in order only when the gold query has a
  top-level ORDER BY; cells compare by value (3 = 3.0 = "3", floats to six
  places). As in Spider's test-suite evaluation, the predicted columns may
  come in any order (every permutation is tried, up to 6 columns).
- **Denotation accuracy** (WikiTableQuestions): both answers become lists
  of values, deduplicated; they match when they have the same number of
  values and every gold value matches a predicted one. A value is a number
  (matching another within 1e-6), a date `yyyy-mm-dd` (parts may be `xx`;
  matching the same date) or a string, compared after normalisation:
  accents removed, curly quotes and dashes made plain, trailing citation
  marks (`[1]`, `*`, `†`) and trailing parenthesised details removed, one
  pair of surrounding double quotes removed, whitespace collapsed, lower
  case. Gold values use the dataset's canonical form where it has one.
- **Hit@1** (WebQSP): the first predicted answer is one of the gold answers.
- **F1** (GrailQA, WebQSP): over the sets of predicted and gold answers;
  1 when both are empty.
- **TempTabQA-C accuracy**: exact match after normalisation (strings as
  above; numbers compared as numbers, so ` 2016` = `2016.0`; a boolean
  True or False is the answer Yes or No; a gold answer listing values,
  "2018, 2014", is matched as a set by a list of values or by one text
  listing them in any order). The
  counterfactual gap is accuracy on the original tables minus accuracy on
  the counterfactual ones, in points.
KGQA and TempTabQA answers are compared with the same normalisation.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from plugins.executor.results import render_value
from plugins.pandas_box.sql_to_pandas.comparison import rows_match

MAX_PERMUTED_COLUMNS = 6
QUOTES = str.maketrans({"‘": "'", "’": "'", "´": "'", "`": "'", "“": '"', "”": '"'})
DASHES = re.compile("[‐‑‒–—−]")
TRAILING_MARKS = re.compile(r"((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$")
TRAILING_DETAILS = re.compile(r"(?<!^)( \([^)]*\))*$")
SURROUNDING_QUOTES = re.compile(r'^"([^"]*)"$')
DATE = re.compile(r"^(\d{4}|xx)-(\d{2}|xx)-(\d{2}|xx)$")
LIST_SEPARATOR = re.compile(r"\s*,\s+")
"""Between the values of a TempTabQA-C answer; "1,500" (no space) is one number."""


def execution_match(
    predicted: Sequence[Sequence[Any]], gold: Sequence[Sequence[Any]], ordered: bool
) -> bool:
    """Spider's execution match: same rows (as a multiset unless `ordered`), the
    predicted columns taken in any order."""
    if len(predicted) != len(gold):
        return False
    if not gold:
        return True
    width = len(gold[0])
    if any(len(row) != width for row in predicted):
        return False
    if rows_match(predicted, gold, ordered):
        return True
    if width > MAX_PERMUTED_COLUMNS:
        return False
    for permutation in itertools.permutations(range(width)):
        reordered = [[row[index] for index in permutation] for row in predicted]
        if rows_match(reordered, gold, ordered):
            return True
    return False


def normalise_text(value: Any) -> str:
    """A value as text, normalised the way WikiTableQuestions' evaluator does."""
    text = render_value(value) if not isinstance(value, str) else value
    text = "".join(
        character
        for character in unicodedata.normalize("NFKD", text)
        if unicodedata.category(character) != "Mn"
    )
    text = DASHES.sub("-", text.translate(QUOTES))
    while True:
        previous = text
        text = TRAILING_MARKS.sub("", text.strip())
        text = TRAILING_DETAILS.sub("", text.strip())
        text = SURROUNDING_QUOTES.sub(r"\1", text.strip())
        if text == previous:
            break
    return " ".join(text.split()).lower()


@dataclass(frozen=True)
class Value:
    """An answer value: its normalised text and, when it reads as one, a number or date."""

    text: str
    number: float | None = None
    date: tuple[int, int, int] | None = None

    def matches(self, other: Value) -> bool:
        """Numbers within 1e-6, dates by their parts, anything else by normalised text."""
        if self.number is not None and other.number is not None:
            return abs(self.number - other.number) < 1e-6
        if self.date is not None and other.date is not None:
            return self.date == other.date
        return self.text == other.text


def to_value(original: Any, canonical: str | None = None) -> Value:
    """The typed value of an answer (from its canonical form when there is one)."""
    text = normalise_text(original)
    source = normalise_text(canonical) if canonical is not None else text
    number = _number(source)
    if number is not None:
        return Value(text, number=number)
    date = DATE.match(source)
    if date is not None:
        parts = tuple(-1 if part == "xx" else int(part) for part in date.groups())
        return Value(text, date=parts)  # type: ignore[arg-type]
    return Value(text)


def to_values(originals: Sequence[Any], canonicals: Sequence[str] | None = None) -> list[Value]:
    """Distinct typed values of an answer list."""
    if canonicals is not None and len(canonicals) == len(originals):
        values = [to_value(o, c) for o, c in zip(originals, canonicals, strict=True)]
    else:
        values = [to_value(original) for original in originals]
    return list(dict.fromkeys(values))


def denotation_match(
    predicted: Sequence[Any], gold: Sequence[Any], gold_canonical: Sequence[str] | None = None
) -> bool:
    """WikiTableQuestions' denotation match of two lists of answer values."""
    predicted_values = to_values(predicted)
    gold_values = to_values(gold, gold_canonical)
    if len(predicted_values) != len(gold_values):
        return False
    return all(any(g.matches(p) for p in predicted_values) for g in gold_values)


def hit_at_1(predicted: Sequence[Any], gold: Sequence[Any]) -> bool:
    """Whether the first predicted answer is a gold answer."""
    if not predicted:
        return False
    first = to_value(predicted[0])
    return any(first.matches(to_value(answer)) for answer in gold)


def answer_f1(predicted: Sequence[Any], gold: Sequence[Any]) -> float:
    """F1 of the predicted answer set against the gold set (1.0 when both are empty)."""
    predicted_values = to_values(predicted)
    gold_values = to_values(gold)
    if not predicted_values and not gold_values:
        return 1.0
    if not predicted_values or not gold_values:
        return 0.0
    true_positives = sum(any(p.matches(g) for g in gold_values) for p in predicted_values)
    if true_positives == 0:
        return 0.0
    precision = true_positives / len(predicted_values)
    recall = sum(any(g.matches(p) for p in predicted_values) for g in gold_values) / len(
        gold_values
    )
    return 2 * precision * recall / (precision + recall)


def temptabqa_match(predicted: Sequence[Any], gold: Any) -> bool:
    """TempTabQA-C's exact match: one normalised answer equal to the gold answer.
    A boolean answers a yes/no question (its gold SQL says `'Yes'`/`'No'`,
    a pandas comparison says True/False: the same denotation). A gold answer
    listing several values ("2018, 2014") is matched as a set of values, by
    a list of values or by one text listing them in any order."""
    answers = [_yes_or_no(value) for value in predicted]
    values = to_values(answers)
    if len(values) == 1 and values[0].matches(to_value(gold)):
        return True
    gold_parts = LIST_SEPARATOR.split(str(gold).strip())
    if len(gold_parts) < 2:
        return False
    if len(answers) == 1 and isinstance(answers[0], str):
        answers = LIST_SEPARATOR.split(answers[0].strip())
    return denotation_match(answers, gold_parts)


def _yes_or_no(value: Any) -> Any:
    return ("Yes" if value else "No") if isinstance(value, bool) else value


def counterfactual_gap(original_accuracy: float, counterfactual_accuracy: float) -> float:
    """How many accuracy points are lost on counterfactual tables (positive = a loss)."""
    return 100 * (original_accuracy - counterfactual_accuracy)


def wilson_interval(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (sound for small samples)."""
    if total == 0:
        return 0.0, 0.0
    share = successes / total
    denominator = 1 + z * z / total
    centre = (share + z * z / (2 * total)) / denominator
    margin = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total)) / denominator
    # At 0 or `total` successes a bound is exactly 0 or 1; computed, it can miss by 1e-17
    # and put the share outside its own interval.
    low = 0.0 if successes == 0 else max(0.0, centre - margin)
    high = 1.0 if successes == total else min(1.0, centre + margin)
    return low, high


def sign_test(wins: int, losses: int) -> float:
    """The exact two-sided sign test of paired outcomes: the chance, were both
    configurations equally good, of a split of the `wins + losses` questions
    only one of them got right at least this uneven. Ties carry no evidence
    and are left out, as the test prescribes."""
    disagreements = wins + losses
    if disagreements == 0:
        return 1.0
    rarer = min(wins, losses)
    tail = sum(math.comb(disagreements, k) for k in range(rarer + 1)) / 2**disagreements
    return min(1.0, 2 * tail)


def _number(text: str) -> float | None:
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None
