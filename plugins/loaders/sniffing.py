"""Recognising what a file really is before a loader trusts its extension."""

from __future__ import annotations

import codecs
from pathlib import Path

from charset_normalizer import from_path

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


def detect_encoding(path: Path) -> str:
    """The most likely text encoding of a file that is not valid UTF-8."""
    best = from_path(path).best()
    if best is None:
        raise BadInputError(f"{path}: text encoding not recognised; save the file as UTF-8")
    return best.encoding
