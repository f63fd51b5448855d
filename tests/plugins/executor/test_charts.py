"""Charts through real workers: a program that draws (pandas' `plot`,
pyplot, networkx's `draw`) gets the figure back as a PNG in `chart`, with its
result; a program that draws nothing gets no chart; the caller refuses a
chart that is not a PNG within the cap."""

from __future__ import annotations

import base64
import json
import os
import struct
from collections.abc import Iterator

import pytest

from plugins import Workspace, load_source
from plugins.executor import ExecutorPool, Limits
from plugins.executor.caps import MalformedResult, trusted_result

SALES = "month,region,amount\n2024-01-01,north,10\n2024-02-01,north,14\n2024-01-01,south,7\n"

CHARTS = {
    "pandas_bar": "result = int(sales.amount.sum())\nsales.plot.bar(x='region', y='amount')",
    "pandas_line_by_date": (
        "frame = sales.assign(month=pd.to_datetime(sales.month)).set_index('month')\n"
        "frame.amount.plot(title='amount')\nresult = int(sales.amount.sum())"
    ),
    "pandas_hist_and_boxplot": (
        "sales.amount.hist()\nsales.boxplot(column='amount')\nresult = int(sales.amount.sum())"
    ),
    "pyplot_subplots_legend_mathtext": (
        "import matplotlib.pyplot as plt\nfigure, axes = plt.subplots(1, 2, figsize=(8, 3))\n"
        "axes[0].bar(sales.region, sales.amount, label='amount')\naxes[0].legend()\n"
        "axes[1].scatter(sales.amount, sales.amount ** 2)\naxes[1].set_title(r'$x^2$')\n"
        "plt.tight_layout()\nresult = int(sales.amount.sum())"
    ),
    "pyplot_pie_and_imshow": (
        "import matplotlib.pyplot as plt\nplt.subplot(1, 2, 1)\n"
        "plt.pie(sales.amount, labels=sales.region)\nplt.subplot(1, 2, 2)\n"
        "plt.imshow(np.arange(9).reshape(3, 3))\nplt.colorbar()\nresult = int(sales.amount.sum())"
    ),
    "networkx_draw": (
        "import networkx as nx\ngraph = nx.Graph([('north', 'south')])\n"
        "nx.draw(graph, with_labels=True)\nresult = int(sales.amount.sum())"
    ),
}


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ExecutorPool, Workspace]]:
    path = tmp_path_factory.mktemp("charts") / "sales.csv"
    path.write_text(SALES)
    pool = ExecutorPool(max_workers=1)
    yield pool, Workspace.of([load_source(str(path))])
    pool.shutdown()


DRAWING_SECONDS = 60.0
"""Drawing takes well under a second on an idle core; the tests' machine is shared."""


def draw(pool: ExecutorPool, workspace: Workspace, code: str):
    """Run `code`, which draws, with time to spare."""
    return pool.execute(code, workspace, "pandas", timeout_seconds=DRAWING_SECONDS)


def png_size(chart: str) -> tuple[int, int]:
    """Width and height from a PNG's header chunk."""
    png = base64.b64decode(chart)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", png[16:24])


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in CHARTS.items()])
def test_a_drawing_program_returns_its_figure_and_its_result(sales, code: str) -> None:
    pool, workspace = sales
    outcome = draw(pool, workspace, code)
    assert outcome.error is None, outcome.error
    assert outcome.result == [[31]]
    width, height = png_size(outcome.chart)
    assert width * height >= 100 * 100


def test_the_template_keeps_no_font_file_open(sales) -> None:
    pool, workspace = sales
    outcome = draw(pool, workspace, "sales.plot(title=r'$x^2$')\nresult = 1")
    assert outcome.chart is not None
    for pid in pool.template_pids():
        assert not [path for path in _opened_paths(pid) if path.endswith((".ttf", ".otf", ".afm"))]


def _opened_paths(pid: int) -> list[str]:
    """What the process's descriptors point at; one closed while being listed is skipped."""
    paths = []
    for descriptor in os.listdir(f"/proc/{pid}/fd"):
        try:
            paths.append(os.readlink(f"/proc/{pid}/fd/{descriptor}"))
        except FileNotFoundError:  # the template forked a spare and closed its end meanwhile
            continue
    return paths


def test_the_figure_size_is_the_programs(sales) -> None:
    pool, workspace = sales
    code = (
        "import matplotlib.pyplot as plt\nplt.figure(figsize=(3, 2), dpi=50)\n"
        "plt.plot([1, 2])\nresult = 1"
    )
    assert png_size(draw(pool, workspace, code).chart) == (150, 100)


def test_a_program_that_draws_nothing_returns_no_chart(sales) -> None:
    pool, workspace = sales
    outcome = pool.execute("result = len(sales)", workspace, "pandas")
    assert outcome.result == [[3]]
    assert outcome.chart is None


def test_a_closed_figure_is_not_returned(sales) -> None:
    pool, workspace = sales
    code = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.close('all')\nresult = 1"
    assert draw(pool, workspace, code).chart is None


def test_a_figure_does_not_reach_the_next_run(sales) -> None:
    pool, workspace = sales
    draw(pool, workspace, "sales.plot()\nresult = 1")
    assert pool.execute("result = 1", workspace, "pandas").chart is None


@pytest.mark.parametrize(
    "chart",
    [
        base64.b64encode(b"GIF89a not a png").decode(),
        "not base64 !",
        base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * 2_000).decode(),
        12,
    ],
    ids=["not_png", "not_base64", "over_the_cap", "not_a_string"],
)
def test_the_caller_refuses_a_chart_that_is_not_a_png_within_the_cap(chart) -> None:
    limits = Limits(max_chart_bytes=1_000)
    payload = json.dumps({"result": [[1]], "columns": ["result"], "chart": chart})
    with pytest.raises(MalformedResult):
        trusted_result(payload.encode(), limits, 10)


def test_the_caller_keeps_a_png_within_the_cap() -> None:
    chart = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"0" * 100).decode()
    payload = json.dumps({"result": [[1]], "columns": ["result"], "chart": chart})
    assert trusted_result(payload.encode(), Limits(max_chart_bytes=1_000), 10).chart == chart


def test_charts_are_prepared_only_for_programs_that_may_draw() -> None:
    from plugins.executor.charts import may_draw

    assert may_draw("sales.plot.bar()") and may_draw("import matplotlib.pyplot as plt")
    assert may_draw("sales.amount.hist()") and may_draw("nx.draw(graph)")
    assert not may_draw("result = sales.amount.sum()")
