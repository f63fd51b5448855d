"""Loaders of flat tables: CSV/TSV, Excel workbooks, Parquet, JSON and JSONL.

Every file is opened for reading only. Text cells are typed by
`cell_types.infer_column_types`; column names are kept exactly, except that
duplicate and empty names (which no code could address) are made unique
with a warning.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from xml.etree.ElementTree import ParseError

import pandas as pd

from plugins.errors import BadInputError
from plugins.hookspecs import hookimpl
from plugins.loaders.cell_types import infer_column_types
from plugins.loaders.sniffing import bom_encoding, check_not_other_format, detect_encoding
from plugins.model import Source
from plugins.names import make_identifier

SNIFF_BYTES = 64 * 1024
DELIMITERS = ",;\t|"


@dataclass(frozen=True)
class TableFileLoader:
    """Opens one family of flat-table files into a dict of named DataFrames."""

    name: str
    extensions: tuple[str, ...]
    read: Callable[[Path], dict[str, pd.DataFrame]]
    kind: str = "table"
    schemes: tuple[str, ...] = ()

    def load(self, location: str, name: str | None) -> Source:
        """Read `location` into typed tables; `name` names the source (and a lone table)."""
        path = Path(location)
        if not path.is_file():
            raise BadInputError(f"{location}: no such file")
        if path.stat().st_size == 0:
            raise BadInputError(f"{location}: file is empty")
        source_name = make_identifier(name or path.stem, fallback="table")
        try:
            tables = self.read(path)
        except BadInputError:
            raise
        except (UnicodeDecodeError, ValueError, OSError, zipfile.BadZipFile) as error:
            message = f"{location}: cannot read as {self.name}: {_first_line(error)}"
            raise BadInputError(message) from None
        if len(tables) == 1:
            tables = {source_name: next(iter(tables.values()))}
        typed = {}
        for table_name, frame in tables.items():
            _check_has_rows(location, table_name, frame, several=len(tables) > 1)
            typed[table_name] = infer_column_types(_unique_columns(location, frame))
        return Source(source_name, "table", self.name, location, typed)


def read_delimited(path: Path) -> dict[str, pd.DataFrame]:
    """A CSV or TSV file: delimiter and encoding detected, quoted newlines kept.

    UTF-8 is tried first (or what a byte-order mark says); only a file that
    fails to decode pays for encoding detection.
    """
    with path.open("rb") as handle:
        head = handle.read(SNIFF_BYTES)
    check_not_other_format(path, head)
    encoding = bom_encoding(head) or "utf-8"
    try:
        return {path.stem: _read_csv(path, head, encoding)}
    except UnicodeDecodeError:
        return {path.stem: _read_csv(path, head, guessed_encoding(path))}


def guessed_encoding(path: Path) -> str:
    """The encoding of a file that is not UTF-8, with a warning: it is a guess."""
    encoding = detect_encoding(path)
    _warn(
        f"{path}: not UTF-8; read as {encoding}, a guess from its bytes "
        "(if letters look wrong, save the file as UTF-8)"
    )
    return encoding


def _read_csv(path: Path, head: bytes, encoding: str) -> pd.DataFrame:
    sample = head.decode(encoding, errors="ignore")
    if not sample.strip():
        raise BadInputError(f"{path}: file is empty")
    delimiter = "\t" if path.suffix.lower() == ".tsv" else sniff_delimiter(sample)
    options = {"sep": delimiter, "encoding": encoding, "keep_default_na": False, "na_values": [""]}
    if '\\"' in sample:  # quotes inside quoted cells escaped as \" (many exports), not ""
        options["escapechar"] = "\\"
    try:
        with warnings.catch_warnings():
            # rows longer than the header: pandas would silently make the first
            # column an index, or (index_col=False) drop the extra cells with a warning
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(path, index_col=False, **options)
    except pd.errors.ParserWarning:
        message = f"{path}: malformed CSV: rows have more cells than the header"
        raise BadInputError(message) from None
    except pd.errors.EmptyDataError:
        raise BadInputError(f"{path}: file has no columns") from None
    except pd.errors.ParserError as error:
        raise BadInputError(f"{path}: malformed CSV: {_first_line(error)}") from None
    header = raw_header(sample, delimiter)
    if len(header) == frame.shape[1]:
        frame.columns = header  # undo pandas' `a.1` renaming; _unique_columns says what it does
    return frame


def sniff_delimiter(sample: str) -> str:
    """The delimiter of a CSV sample among `, ; TAB |`, comma when unsure."""
    lines = sample.splitlines()[:50]
    try:
        return csv.Sniffer().sniff("\n".join(lines), delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","


def raw_header(sample: str, delimiter: str) -> list[str]:
    """The header cells exactly as written in the file."""
    return next(csv.reader(io.StringIO(sample), delimiter=delimiter), [])


def read_excel(path: Path) -> dict[str, pd.DataFrame]:
    """An Excel workbook: every sheet a table, named after the sheet."""
    if not zipfile.is_zipfile(path):
        raise BadInputError(f"{path}: not an Excel workbook (.xlsx files are zip archives)")
    try:
        sheets = pd.read_excel(path, sheet_name=None, keep_default_na=False, na_values=[""])
    except (KeyError, ValueError, ParseError) as error:
        # a part missing from the archive is a KeyError, a damaged part a ParseError
        detail = "a part is missing" if isinstance(error, KeyError) else _first_line(error)
        kind = "not a readable Excel workbook, damaged or another kind of zip"
        message = f"{path}: {kind} ({detail})"
        raise BadInputError(message) from None
    return {make_identifier(str(sheet), fallback="sheet"): frame for sheet, frame in sheets.items()}


def read_parquet(path: Path) -> dict[str, pd.DataFrame]:
    """A Parquet file: one table with the types it stores."""
    with path.open("rb") as handle:
        if handle.read(4) != b"PAR1":
            raise BadInputError(f"{path}: not a Parquet file (missing PAR1 magic bytes)")
    return {path.stem: pd.read_parquet(path)}


def read_json_records(path: Path) -> dict[str, pd.DataFrame]:
    """JSON (an array of records, or an object holding one) or JSON Lines."""
    raw = path.read_bytes()
    try:
        text = raw.decode(bom_encoding(raw) or "utf-8")
    except UnicodeDecodeError:
        text = raw.decode(guessed_encoding(path))
    if path.suffix.lower() == ".jsonl":
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                records.append(_parse_json(path, line, f"line {number}"))
    else:
        records = _parse_json(path, text, "document")
        if isinstance(records, dict):
            lists = [value for value in records.values() if isinstance(value, list)]
            if len(lists) != 1:
                raise BadInputError(
                    f"{path}: expected an array of records or an object holding one array"
                )
            records = lists[0]
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise BadInputError(f"{path}: expected records (JSON objects), one per row")
    return {path.stem: pd.json_normalize(records)}


def _parse_json(path: Path, text: str, where: str) -> object:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInputError(f"{path}: invalid JSON in {where}: {error}") from None
    except RecursionError:
        message = f"{path}: JSON nested too deeply in {where} (records are rows of cells)"
        raise BadInputError(message) from None


def _check_has_rows(location: str, table: str, frame: pd.DataFrame, several: bool) -> None:
    where = f" (sheet {table!r})" if several else ""
    if frame.shape[1] == 0:
        raise BadInputError(f"{location}{where}: no columns found")
    if frame.shape[0] == 0:
        raise BadInputError(f"{location}{where}: has a header but no data rows")


def _unique_columns(location: str, frame: pd.DataFrame) -> pd.DataFrame:
    """Rename empty and repeated column names so each can be addressed."""
    names: list[str] = []
    seen: set[str] = set()
    for position, column in enumerate(frame.columns, start=1):
        name = str(column).strip() if not _is_unnamed(column) else ""
        original = name
        if not name:
            name = f"column_{position}"
        suffix = 2
        while name in seen:
            name = f"{original or 'column'}_{suffix}"
            suffix += 1
        if name != str(column):
            reason = "an empty" if not original else "a repeated"
            _warn(f"{location}: column {position} has {reason} name; renamed to {name!r}")
        seen.add(name)
        names.append(name)
    if names == [str(c) for c in frame.columns]:
        return frame
    renamed = frame.copy(deep=False)
    renamed.columns = names
    return renamed


def _is_unnamed(column: object) -> bool:
    return pd.isna(column) or str(column).startswith("Unnamed: ")


def _warn(message: str) -> None:
    print(f"pandora: warning: {message}", file=sys.stderr)


def _first_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


LOADERS = (
    TableFileLoader("csv", (".csv", ".tsv", ".txt"), read_delimited),
    TableFileLoader("excel", (".xlsx", ".xlsm"), read_excel),
    TableFileLoader("parquet", (".parquet", ".pq"), read_parquet),
    TableFileLoader("json", (".json", ".jsonl"), read_json_records),
)


@hookimpl
def register_loaders(register: Callable[..., None]) -> None:
    """The built-in flat-table loaders."""
    for loader in LOADERS:
        register(loader)
