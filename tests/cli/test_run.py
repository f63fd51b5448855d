"""`pandora run` as a user calls it: JSON shape and exit codes of DESIGN.md."""

from __future__ import annotations

from pathlib import Path

PEOPLE = "name,age\nAda,36\nBob,25\nCy,41\n"


def write_people(directory: Path) -> Path:
    path = directory / "people.csv"
    path.write_text(PEOPLE)
    return path


def test_run_prints_rows_and_exits_0(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    code = tmp_path / "q.py"
    code.write_text("print('checking')\nresult = people[people.age > 30].name\n")
    run = pandora("run", str(source), "--code", str(code), "--json")
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert payload["result"] == [["Ada"], ["Cy"]]
    assert payload["error"] is None
    assert payload["stdout"] == "checking\n"
    assert payload["elapsed_ms"] > 0


def test_run_reads_code_from_stdin_and_reports_failure_with_exit_1(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    run = pandora("run", str(source), "--code", "-", "--json", stdin="import os\nresult = 1\n")
    assert run.exit_code == 1
    assert run.json["result"] is None
    assert run.json["error"]["type"] == "CodeRejected"
    assert run.json["error"]["line"] == 1


def test_run_without_json_prints_tab_separated_rows(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    run = pandora("run", str(source), "--code", "-", stdin="result = people.sort_values('age')")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["Bob\t25", "Ada\t36", "Cy\t41"]


def test_run_on_several_sources(pandora, tmp_path) -> None:
    people = write_people(tmp_path)
    ages = tmp_path / "ages.csv"
    ages.write_text("age,label\n36,mid\n25,young\n41,senior\n")
    run = pandora(
        "run",
        str(people),
        str(ages),
        "--code",
        "-",
        "--json",
        stdin="result = people.merge(ages, on='age').sort_values('age').label",
    )
    assert run.exit_code == 0, run.stderr
    assert run.json["result"] == [["young"], ["mid"], ["senior"]]


def test_bad_input_exits_2(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    missing_source = pandora("run", str(tmp_path / "nope.csv"), "--code", "-", "--json", stdin="")
    assert missing_source.exit_code == 2
    assert missing_source.json["error"]["type"] == "BadInput"
    missing_code = pandora("run", str(source), "--code", str(tmp_path / "nope.py"), "--json")
    assert missing_code.exit_code == 2
