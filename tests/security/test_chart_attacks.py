"""Attacks on charts (issue 26): programs may draw with matplotlib on the
Agg backend, and the executor returns the figure itself. A program may not
switch the backend (a backend is a module imported by name), write a figure
to a file, load a font or an rc file from a path, or exhaust the caller with
a huge figure: each ends in a clear error, with nothing done.

DIR in a program is replaced by the sandbox directory.
"""

from __future__ import annotations

import pytest

PLT = "import matplotlib\nimport matplotlib.pyplot as plt\n"

ATTACKS = {
    "savefig_to_a_path": PLT + "plt.bar(people.name, people.age)\nplt.savefig('DIR/chart.png')",
    "figure_savefig_to_a_path": PLT + "figure = plt.figure()\nfigure.savefig('DIR/chart.png')",
    "canvas_prints_to_a_path": PLT + "plt.plot([1, 2])\nplt.gcf().canvas.print_png('DIR/c.png')",
    "canvas_print_figure_to_a_path": (
        PLT + "plt.plot([1, 2])\nplt.gcf().canvas.print_figure('DIR/chart.pdf')"
    ),
    "imsave_to_a_path": PLT + "plt.imsave('DIR/chart.png', np.zeros((2, 2)))",
    "imread_a_file": PLT + "result = plt.imread('DIR/people.csv')",
    "use_another_backend": PLT + "matplotlib.use('module://this')\nresult = 1",
    "switch_backend": PLT + "plt.switch_backend('module://this')\nresult = 1",
    "switch_to_a_real_backend": PLT + "plt.switch_backend('pdf')\nresult = 1",
    "backend_registry_loads_a_module": (
        PLT + "result = str(plt.backend_registry.load_backend_module('module://this'))"
    ),
    "import_a_backend": "import matplotlib.backends.backend_pdf as pdf\nresult = 1",
    "font_from_a_path": (
        "class FontPath:\n    def __fspath__(self):\n        return 'DIR/people.csv'\n"
        + PLT
        + "plt.text(0.5, 0.5, 'x', fontproperties=FontPath())\nresult = 1"
    ),
    "font_properties_with_a_file": (
        "import matplotlib.text\n"
        "result = str(matplotlib.text.FontProperties(fname='DIR/people.csv'))"
    ),
    "font_manager_import": (
        "from matplotlib.font_manager import fontManager\n"
        "fontManager.addfont('DIR/people.csv')\nresult = 1"
    ),
    "style_from_a_file": PLT + "plt.style.use('DIR/people.csv')\nresult = 1",
    "rc_file": PLT + "matplotlib.rc_file('DIR/people.csv')\nresult = 1",
    "rc_context_from_a_file": PLT + "with plt.rc_context(fname='DIR/people.csv'):\n    result = 1",
    "tex_starts_a_program": (
        PLT + "plt.rcParams['text.usetex'] = True\nplt.title('x')\nplt.plot([1, 2])\nresult = 1"
    ),
    "pixels_past_the_cap": PLT + "plt.figure(figsize=(1000, 1000), dpi=100)\nresult = 1",
    "hundred_million_points": (
        PLT + "x = np.arange(10 ** 8, dtype=float)\nplt.plot(x, x)\nresult = 1"
    ),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in ATTACKS.items()])
def test_chart_attack_ends_in_a_clear_error_with_nothing_done(sandbox, code: str) -> None:
    outcome = sandbox.run(code.replace("DIR", str(sandbox.directory)), timeout=5.0)
    assert outcome.result is None, outcome.result
    assert outcome.chart is None
    assert outcome.error is not None
    assert outcome.error.type != "WorkerCrashed", outcome.error  # data, not a crash
    assert outcome.error.message
    assert "Beautiful is better" not in outcome.stdout  # the module `this` was not imported
    sandbox.assert_nothing_done()


def test_a_backend_set_in_rc_params_is_never_loaded(sandbox) -> None:
    outcome = sandbox.run(PLT + "plt.rcParams['backend'] = 'module://this'\nplt.plot([1, 2])")
    assert "Beautiful is better" not in outcome.stdout
    assert outcome.error is None or outcome.error.type != "WorkerCrashed"
    sandbox.assert_nothing_done()
