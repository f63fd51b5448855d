"""Bad input given to the real `pandora` command: exit code 2 and one line on
stderr naming the file and the problem, never a traceback; the file is left
exactly as it was."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import REPOSITORY, CliRun

ERROR_PREFIX = "pandora: BadInput: "


def zip_of_text(path: Path) -> None:
    """A zip archive that holds no workbook at all."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "not a workbook")


def workbook_with_a_broken_sheet(path: Path) -> None:
    """A real workbook whose sheet's XML is cut short."""
    whole = path.with_name("whole.xlsx")
    pd.DataFrame({"a": [1, 2]}).to_excel(whole, index=False)
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(path, "w") as broken:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename.endswith("sheet1.xml"):
                content = b"<worksheet"
            broken.writestr(item, content)


def deeply_nested_json(path: Path) -> None:
    path.write_text("[" + '{"a": ' * 100_000 + "1" + "}" * 100_000 + "]")


def deeply_nested_json_lines(path: Path) -> None:
    path.write_text('{"a": ' * 100_000 + "1" + "}" * 100_000 + "\n")


def database_without_tables(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE gone (a INTEGER)")
        connection.execute("DROP TABLE gone")
    connection.close()


def database_of_views_only(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE VIEW answer AS SELECT 42 AS value")
    connection.close()


@pytest.mark.parametrize(
    ("file_name", "make", "problem"),
    [
        ("book.xlsx", zip_of_text, "not a readable Excel workbook"),
        ("book.xlsx", workbook_with_a_broken_sheet, "not a readable Excel workbook"),
        ("records.json", deeply_nested_json, "JSON nested too deeply in document"),
        ("records.jsonl", deeply_nested_json_lines, "JSON nested too deeply in line 1"),
        ("empty.sqlite", database_without_tables, "the database has no tables"),
        ("views.sqlite", database_of_views_only, "the database has no tables"),
    ],
)
def test_a_broken_source_is_one_line_and_exit_2(
    pandora, tmp_path: Path, file_name: str, make: Callable[[Path], None], problem: str
) -> None:
    path = tmp_path / file_name
    make(path)
    before = path.read_bytes()
    run = pandora("inspect", str(path))
    assert run.exit_code == 2, run.stderr
    assert run.stderr.startswith(f"{ERROR_PREFIX}{path}: {problem}"), run.stderr
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    assert run.stdout == ""
    assert path.read_bytes() == before


@pytest.mark.parametrize("from_stdin", [False, True])
def test_code_that_is_not_utf8_is_one_line_and_exit_2(pandora, tmp_path: Path, from_stdin) -> None:
    table = tmp_path / "shop.csv"
    table.write_text("item\npen\n")
    code = tmp_path / "program.py"
    code.write_bytes("result = 'café'\n".encode("latin-1"))
    if from_stdin:
        run = _pandora_with_bytes_on_stdin(["run", str(table), "--code", "-"], code.read_bytes())
        where = "the code on stdin"
    else:
        run = pandora("run", str(table), "--code", str(code))
        where = str(code)
    assert run.exit_code == 2, run.stderr
    message = "not UTF-8 text (byte offset 13); save the code as UTF-8"
    assert run.stderr == f"{ERROR_PREFIX}{where}: {message}\n"


def test_utf8_code_with_a_byte_order_mark_runs(pandora, tmp_path: Path) -> None:
    table = tmp_path / "shop.csv"
    table.write_text("item\npen\n")
    code = tmp_path / "program.py"
    code.write_bytes("\ufeffresult = 'café'\n".encode())
    run = pandora("run", str(table), "--code", str(code))
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["result", "café"]


def _pandora_with_bytes_on_stdin(arguments: list[str], stdin: bytes) -> CliRun:
    """`pandora ARGUMENTS...` with raw bytes on stdin (the shared fixture sends text)."""
    completed = subprocess.run(
        [sys.executable, "-m", "cli", *arguments],
        capture_output=True,
        input=stdin,
        cwd=REPOSITORY,
        timeout=120,
    )
    return CliRun(completed.returncode, completed.stdout.decode(), completed.stderr.decode())
