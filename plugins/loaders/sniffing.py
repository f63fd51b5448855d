"""Recognising what a file really is before a loader trusts its extension."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from plugins.errors import BadInputError

MAGIC_NUMBERS = {
    b"SQLite format 3\x00": "a SQLite database",
    b"PK\x03\x04": "a zip archive (an Excel workbook?)",
    b"PAR1": "a Parquet file",
    b"%PDF": "a PDF document",
    b"\x89PNG": "a PNG image",
    b"\x1f\x8b": "a gzip archive",
}
BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def check_not_other_format(path: Path, head: bytes) -> None:
    """Refuse a text-table file whose first bytes say it is something else."""
    for magic, what in MAGIC_NUMBERS.items():
        if head.startswith(magic):
            raise BadInputError(f"{path}: looks like {what}, not a text table")
    if b"\x00" in head and not any(head.startswith(bom) for bom, _ in BOMS):
        raise BadInputError(f"{path}: contains binary data (NUL bytes), not a text table")


def bom_encoding(head: bytes) -> str | None:
    """The encoding a byte-order mark at the start of a file announces, if any."""
    for bom, encoding in BOMS:
        if head.startswith(bom):
            return encoding
    return None


WESTERN_SINGLE_BYTE = "cp1252"
"""Windows-1252: Latin-1 plus curly quotes and the euro sign, the legacy encoding
most non-UTF-8 tables are written in."""
NON_ASCII_RUN = re.compile(rb"[\x80-\xff]+")


def detect_encoding(path: Path) -> str:
    """The most likely text encoding of a file that is not valid UTF-8: always a guess.

    Statistical detection needs many non-ASCII bytes; on a small file it may
    read `S\xe3o` (Latin-1 `São`) as Chinese. Text whose non-ASCII bytes stand
    alone between ASCII ones (`S?o Paulo`, `Z?rich`) is a single-byte encoding,
    read as Windows-1252 when it decodes cleanly; anything else (Cyrillic and
    CJK text come in runs) is left to charset_normalizer.
    """
    data = path.read_bytes()
    if has_lone_non_ascii_bytes(data):
        try:
            data.decode(WESTERN_SINGLE_BYTE)
            return WESTERN_SINGLE_BYTE
        except UnicodeDecodeError:
            pass
    from charset_normalizer import from_bytes  # only files that are not UTF-8 pay for it

    matches = list(from_bytes(data))
    if b"\x00" not in data:
        # ASCII delimiters and line breaks are NUL-padded in UTF-16/32: without
        # a single NUL byte the file cannot be either, however short it is.
        matches = [m for m in matches if not m.encoding.startswith(("utf_16", "utf_32"))]
    if not matches:
        raise BadInputError(f"{path}: text encoding not recognised; save the file as UTF-8")
    return matches[0].encoding


def has_lone_non_ascii_bytes(data: bytes) -> bool:
    """Whether the non-ASCII bytes of `data` come alone or in pairs between ASCII
    ones, mostly alone: the mark of accented letters in a single-byte encoding."""
    runs = [len(run) for run in NON_ASCII_RUN.findall(data)]
    return bool(runs) and max(runs) <= 2 and runs.count(1) * 2 >= len(runs)
