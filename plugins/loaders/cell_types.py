"""Giving text columns of real-world tables the dtype their cells deserve.

A column becomes numeric when every non-missing cell is cleanly a number once
thousands separators and trailing footnote marks (`1,234`, `1484[a]`, `12†`)
are removed, and datetime when every such cell parses as a date. Anything
else stays text, unchanged: a mixed column is never half-converted.
"""

from __future__ import annotations

import pandas as pd

MISSING_TOKENS = frozenset({"", "n/a", "na", "nan", "null", "none", "-", "—", "–", "?"})
MISSING_SPELLINGS = sorted(
    {spelling for token in MISSING_TOKENS for spelling in (token, token.upper(), token.title())}
)
# Plain pattern strings (not compiled) so that pandas hands them to Arrow's RE2 engine.
FOOTNOTE_MARK = r"(?:\[[^\]]{1,4}\]|[*†‡§¶]+)$"
CLEAN_NUMBER = r"[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
DATE_LIKE = (
    r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?"
    r"|(?:\d{1,2} )?[A-Za-z]{3,9}\.? \d{1,2},? \d{4}"
    r"|\d{1,2} [A-Za-z]{3,9} \d{4}"
)
SAMPLE_SIZE = 200


def infer_column_types(frame: pd.DataFrame) -> pd.DataFrame:
    """Return `frame` with each clean text column converted to numbers or dates."""
    converted = {}
    for column in frame.columns:
        series = frame[column]
        if is_text(series):
            typed = infer_series_type(series)
            if typed is not series:
                converted[column] = typed
    if not converted:
        return frame
    result = frame.copy(deep=False)
    for column, typed in converted.items():
        result[column] = typed
    return result


def is_text(series: pd.Series) -> bool:
    """True for object and string columns, the only ones inference looks at."""
    return pd.api.types.is_object_dtype(series) or pd.api.types.is_string_dtype(series)


def infer_series_type(series: pd.Series) -> pd.Series:
    """`series` as numbers or dates when all its present cells are; else unchanged.

    A sample of the column is tried first, so that the common case, a real
    text column, is rejected without touching every cell.
    """
    sample = series.head(SAMPLE_SIZE * 10).dropna().head(SAMPLE_SIZE)
    if sample.empty:  # the column starts with thousands of missing cells
        sample = series.dropna().head(SAMPLE_SIZE)
    if not all(isinstance(value, str) for value in sample):
        return series
    if _all_numbers(_present(sample)):
        cleaned = _present(series.dropna()).str.replace(FOOTNOTE_MARK, "", regex=True)
        if not cleaned.empty and cleaned.str.fullmatch(CLEAN_NUMBER).all():
            return _to_number(cleaned.str.replace(",", "", regex=False), series.index)
    elif _present(sample).str.fullmatch(DATE_LIKE).all():
        return _to_datetime(series)
    return series


def _all_numbers(values: pd.Series) -> bool:
    cleaned = values.str.replace(FOOTNOTE_MARK, "", regex=True)
    return bool(cleaned.str.fullmatch(CLEAN_NUMBER).all())


def _present(values: pd.Series) -> pd.Series:
    """Stripped text of `values` without the cells that mean 'missing'."""
    text = values.astype("string").str.strip()
    return text[~text.isin(MISSING_SPELLINGS)]


def _to_number(values: pd.Series, index: pd.Index) -> pd.Series:
    numbers = pd.to_numeric(values.astype(str)).reindex(index)
    integral = (numbers.dropna() % 1 == 0).all() and not values.str.contains(r"[.eE]").any()
    if integral:
        return numbers.astype("int64") if numbers.notna().all() else numbers.astype("Int64")
    return numbers.astype("float64")


def _to_datetime(series: pd.Series) -> pd.Series:
    """`series` as dates when every present cell is one, else unchanged.

    A column of text as read (not objects, where a number would be taken for
    a timestamp) is tried as strict ISO 8601 first: fast, it checks every cell
    itself, and missing cells become NaT. Otherwise, or when that fails, the
    stripped cells without missing-value spellings (`n/a`) are tried, and
    other layouts only when each cell looks like a date.
    """
    if series.dtype != object:
        try:
            return pd.to_datetime(series, format="ISO8601")
        except (ValueError, OverflowError):
            pass
    values = _present(series.dropna())
    if values.empty:
        return series
    try:
        return pd.to_datetime(values, format="ISO8601").reindex(series.index)
    except (ValueError, OverflowError):
        pass
    if not values.str.fullmatch(DATE_LIKE).all():
        return series
    try:
        return pd.to_datetime(values, format="mixed").reindex(series.index)
    except (ValueError, OverflowError):
        return series
