"""`pandora run` as a user calls it: JSON shape and exit codes of DESIGN.md."""

from __future__ import annotations

from pathlib import Path

PEOPLE = "name,age\nAda,36\nBob,25\nCy,41\n"
SALES = "Nation,Quantity\nFrance,5\nItaly,7\nFrance,7\nSpain,6\nItaly,2\nSpain,1\n"


def write_people(directory: Path) -> Path:
    path = directory / "people.csv"
    path.write_text(PEOPLE)
    return path


def test_run_prints_rows_and_exits_0(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    code = tmp_path / "q.py"
    code.write_text("print('checking')\nresult = people[people.age > 30]\n")
    run = pandora("run", str(source), "--code", str(code), "--json")
    assert run.exit_code == 0, run.stderr
    payload = run.json
    assert set(payload) == {
        "columns",
        "result",
        "truncated",
        "total_rows",
        "error",
        "stdout",
        "elapsed_ms",
    }
    assert payload["columns"] == ["name", "age"]
    assert payload["result"] == [["Ada", 36], ["Cy", 41]]  # numbers stay numbers
    assert payload["total_rows"] == 2 and payload["truncated"] is False
    assert payload["error"] is None
    assert payload["stdout"] == "checking\n"
    assert payload["elapsed_ms"] > 0


def test_the_labels_of_a_grouped_result_are_kept(pandora, tmp_path) -> None:
    source = tmp_path / "sales.csv"
    source.write_text(SALES)
    code = 'result = sales.groupby("Nation")["Quantity"].sum().nlargest(2)'
    run = pandora("run", str(source), "--code", "-", "--json", stdin=code)
    assert run.exit_code == 0, run.stderr
    assert run.json["columns"] == ["Nation", "Quantity"]
    assert run.json["result"] == [["France", 12], ["Italy", 9]]
    text = pandora("run", str(source), "--code", "-", stdin=code)
    assert text.stdout.splitlines() == ["Nation\tQuantity", "France\t12", "Italy\t9"]


def test_missing_values_are_null_in_json(pandora, tmp_path) -> None:
    source = tmp_path / "scores.csv"
    source.write_text("player,score\nAda,1.5\nBob,\n")
    run = pandora("run", str(source), "--code", "-", "--json", stdin="result = scores.score")
    assert run.exit_code == 0, run.stderr
    assert run.json["result"] == [[1.5], [None]]


def test_run_reads_code_from_stdin_and_reports_failure_with_exit_1(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    run = pandora("run", str(source), "--code", "-", "--json", stdin="import os\nresult = 1\n")
    assert run.exit_code == 1
    assert run.json["result"] is None
    assert run.json["error"]["type"] == "CodeRejected"
    assert run.json["error"]["line"] == 1
    assert run.stderr.startswith("pandora: CodeRejected: ") and "(line 1)" in run.stderr


def test_text_output_has_a_header_and_tab_separated_rows(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    run = pandora("run", str(source), "--code", "-", stdin="result = people.sort_values('age')")
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == ["name\tage", "Bob\t25", "Ada\t36", "Cy\t41"]
    assert run.stderr == ""


def test_max_rows_cuts_the_result_and_says_so(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    arguments = ("run", str(source), "--code", "-", "--max-rows", "2")
    run = pandora(*arguments, "--json", stdin="result = people.name")
    assert run.exit_code == 0, run.stderr
    assert run.json["result"] == [["Ada"], ["Bob"]]
    assert run.json["truncated"] is True and run.json["total_rows"] == 3
    text = pandora(*arguments, stdin="result = people.name")
    assert text.stdout.splitlines() == ["name", "Ada", "Bob"]
    assert text.stderr.strip() == (
        "pandora: warning: the result is truncated: the first 2 of 3 rows (--max-rows 2)"
    )


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
        stdin="result = people.merge(ages, on='age').sort_values('age').label.tolist()",
    )
    assert run.exit_code == 0, run.stderr
    assert run.json["result"] == [["young"], ["mid"], ["senior"]]


def test_run_on_a_knowledge_graph_with_a_focus_has_its_boxes(pandora) -> None:
    code = "result = sorted(film.film)"
    run = pandora(
        "run",
        "examples/films.ttl",
        "--entities",
        "Alfred Hitchcock",
        "--hops",
        "1",
        "--code",
        "-",
        "--json",
        stdin=code,
    )
    assert run.exit_code == 0, run.stderr
    assert ["Vertigo"] in run.json["result"] and ["Rear Window"] in run.json["result"]
    by_question = pandora(
        "run",
        "examples/films.ttl",
        "--question",
        "Which films did Alfred Hitchcock direct?",
        "--code",
        "-",
        "--json",
        stdin=code,
    )
    assert by_question.exit_code == 0, by_question.stderr
    assert ["Vertigo"] in by_question.json["result"]


def test_run_on_a_knowledge_graph_without_a_focus_says_what_to_pass(pandora) -> None:
    run = pandora("run", "examples/films.ttl", "--code", "-", "--json", stdin="result = film")
    assert run.exit_code == 2
    assert "--entities or --question" in run.json["error"]["message"]
    assert len(run.stderr.strip().splitlines()) == 1 and "NameError" not in run.stderr
    unknown = pandora(
        "run", "examples/films.ttl", "--entities", "Vertgo", "--code", "-", stdin="result = 1"
    )
    assert unknown.exit_code == 2 and "Vertigo" in unknown.stderr


def test_bad_input_exits_2(pandora, tmp_path) -> None:
    source = write_people(tmp_path)
    missing_source = pandora("run", str(tmp_path / "nope.csv"), "--code", "-", "--json", stdin="")
    assert missing_source.exit_code == 2
    assert missing_source.json["error"]["type"] == "BadInput"
    missing_code = pandora("run", str(source), "--code", str(tmp_path / "nope.py"), "--json")
    assert missing_code.exit_code == 2
    assert missing_code.stderr == f"pandora: BadInput: {tmp_path / 'nope.py'}: no such code file\n"
