"""`--output FILE` of `pandora sql` and `pandora run` on real sources: the rows
land in the file in the format its extension names, read back equal to what
SQLite computes; a bad name is refused before any work and nothing is touched."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest

GENRES = "SELECT genre, ROUND(AVG(price), 2) AS average_price FROM album GROUP BY genre"


def sqlite_rows(examples: Path, query: str) -> list[list[object]]:
    with sqlite3.connect(f"file:{examples / 'music.sqlite'}?mode=ro", uri=True) as connection:
        return [list(row) for row in connection.execute(query).fetchall()]


def test_sql_writes_csv_that_reads_back_as_the_rows(pandora, examples, tmp_path) -> None:
    output = tmp_path / "genres.csv"
    run = pandora("sql", str(examples / "music.sqlite"), GENRES, "--output", str(output))
    assert run.exit_code == 0, run.stderr
    with output.open(newline="", encoding="utf-8") as handle:
        header, *rows = list(csv.reader(handle))
    assert header == ["genre", "average_price"]
    assert [[genre, float(price)] for genre, price in rows] == sqlite_rows(examples, GENRES)
    assert f"pandora: wrote {len(rows)} row(s) to {output}" in run.stderr
    assert run.stdout.splitlines()[0] == "genre\taverage_price"  # stdout is unchanged


def test_sql_writes_json_equal_to_the_json_output(pandora, examples, tmp_path) -> None:
    output = tmp_path / "genres.json"
    database = str(examples / "music.sqlite")
    run = pandora("sql", database, GENRES, "--output", str(output), "--json")
    assert run.exit_code == 0, run.stderr
    written = json.loads(output.read_text(encoding="utf-8"))
    assert written == {"columns": run.json["columns"], "rows": run.json["rows"]}
    assert written["rows"] == sqlite_rows(examples, GENRES)


def test_sql_writes_a_markdown_table(pandora, examples, tmp_path) -> None:
    output = tmp_path / "genres.md"
    query = "SELECT 'a|b' AS label, 2 AS n, NULL AS gap UNION ALL SELECT 'two\nlines', 3, NULL"
    run = pandora("sql", str(examples / "music.sqlite"), query, "--output", str(output))
    assert run.exit_code == 0, run.stderr
    assert output.read_text(encoding="utf-8").splitlines() == [
        "| label | n | gap |",
        "| --- | ---: | --- |",
        "| a\\|b | 2 |  |",
        "| two\\nlines | 3 |  |",
    ]


def test_run_writes_the_result_of_the_code(pandora, tmp_path) -> None:
    source = tmp_path / "people.csv"
    source.write_text("name,age\nAda,36\nBob,25\n")
    output = tmp_path / "older.csv"
    code = "result = people[people.age > 30]"
    run = pandora("run", str(source), "--code", "-", "--output", str(output), stdin=code)
    assert run.exit_code == 0, run.stderr
    assert output.read_text(encoding="utf-8") == "name,age\nAda,36\n"


def test_code_that_fails_writes_no_file(pandora, tmp_path) -> None:
    source = tmp_path / "people.csv"
    source.write_text("name\nAda\n")
    output = tmp_path / "answer.csv"
    run = pandora("run", str(source), "--code", "-", "--output", str(output), stdin="result = x")
    assert run.exit_code == 1
    assert not output.exists()


@pytest.mark.parametrize("name", ["answer.txt", "answer", "missing-folder/answer.csv"])
def test_an_output_name_that_cannot_be_written_is_a_usage_error(
    pandora, examples, tmp_path, name
) -> None:
    output = tmp_path / name
    run = pandora("sql", str(examples / "music.sqlite"), "SELECT 1", "--output", str(output))
    assert run.exit_code == 2 and run.stdout == ""
    assert run.stderr.startswith("pandora: UsageError: Invalid value for '--output'")
    assert len(run.stderr.splitlines()) == 1
    assert not output.exists()


def test_an_output_that_is_a_source_is_refused_and_the_source_kept(pandora, tmp_path) -> None:
    source = tmp_path / "people.csv"
    source.write_text("name\nAda\n")
    run = pandora("sql", str(source), "SELECT * FROM people", "--output", str(source))
    assert run.exit_code == 2
    assert (
        run.stderr
        == f"pandora: BadInput: --output {source}: is a source; write the rows elsewhere\n"
    )
    assert source.read_text() == "name\nAda\n"


def test_sql_text_output_says_a_single_value_in_a_sentence(pandora, examples) -> None:
    run = pandora("sql", str(examples / "music.sqlite"), "SELECT COUNT(*) AS albums FROM album")
    assert run.exit_code == 0, run.stderr
    (count,) = sqlite_rows(examples, "SELECT COUNT(*) FROM album")[0]
    assert run.stdout.splitlines() == ["albums", str(count)]
    assert run.stderr == f"The answer is {count}.\n"
