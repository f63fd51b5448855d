"""`--chart FILE` of `pandora run` and `pandora ask`: the figure the code draws
is written as PNG; a FILE that cannot be written is bad input before anything runs."""

from __future__ import annotations

from pathlib import Path

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def write_sales(directory: Path) -> Path:
    path = directory / "sales.csv"
    path.write_text("region,amount\nnorth,10\nsouth,7\n")
    return path


def test_the_drawn_figure_is_written_and_the_rows_printed(pandora, tmp_path) -> None:
    source, chart = write_sales(tmp_path), tmp_path / "chart.png"
    code = "sales.plot.bar(x='region', y='amount')\nresult = int(sales.amount.sum())"
    chart_options = ("--chart", str(chart), "--timeout", "60", "--json")
    run = pandora("run", str(source), "--code", "-", *chart_options, stdin=code)
    assert run.exit_code == 0, run.stderr
    assert run.json["result"] == [[17]]
    assert chart.read_bytes().startswith(PNG_SIGNATURE)
    assert f"chart written to {chart}" in run.stderr


def test_no_figure_leaves_the_file_alone(pandora, tmp_path) -> None:
    source, chart = write_sales(tmp_path), tmp_path / "chart.png"
    chart.write_bytes(b"the user's")
    run = pandora("run", str(source), "--code", "-", "--chart", str(chart), stdin="result = 1")
    assert run.exit_code == 0, run.stderr
    assert "the code drew no figure" in run.stderr
    assert chart.read_bytes() == b"the user's"


def test_a_chart_in_a_missing_directory_is_bad_input(pandora, tmp_path) -> None:
    source = write_sales(tmp_path)
    chart = tmp_path / "missing" / "chart.png"
    run = pandora("run", str(source), "--code", "-", "--chart", str(chart), stdin="result = 1")
    assert run.exit_code == 2
    assert "no such directory for the chart" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not chart.parent.exists()


def test_a_program_that_writes_its_own_file_is_refused(pandora, tmp_path) -> None:
    source, chart = write_sales(tmp_path), tmp_path / "chart.png"
    code = f"import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.savefig({str(chart)!r})"
    run = pandora("run", str(source), "--code", "-", "--chart", str(chart), stdin=code)
    assert run.exit_code == 1
    assert "savefig is closed" in run.stderr
    assert not chart.exists()


def test_ask_refuses_a_chart_in_a_missing_directory_before_asking(pandora, tmp_path) -> None:
    source = write_sales(tmp_path)
    chart = tmp_path / "missing" / "chart.png"
    run = pandora("ask", "total amount?", "--source", str(source), "--chart", str(chart))
    assert run.exit_code == 2
    assert "no such directory for the chart" in run.stderr
