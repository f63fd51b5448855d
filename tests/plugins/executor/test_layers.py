"""The Python-level layers on their own, in this process: the static check,
guarded modules, restricted builtins and result rendering."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from plugins.executor.code_check import CodeRejected, check_code
from plugins.executor.errors import SandboxViolation
from plugins.executor.models import Limits
from plugins.executor.module_guard import GuardedModule
from plugins.executor.results import normalise, render_value
from plugins.executor.sandbox_builtins import make_builtins


@pytest.mark.parametrize(
    "code",
    [
        "import pandas as pd\nresult = pd.DataFrame({'a': [1]})",
        "from collections import Counter\nresult = Counter('ab')",
        "result = '{} and {:>5}'.format(1, 2)",
        "result = f'{1 + 1:03d}'",
        "result = getattr(df, 'shape')",
        "df.columns = ['a']\nresult = df",
        "t = 3\nresult = df.query('a > @t and b == \"x\"')",
    ],
)
def test_static_check_accepts_ordinary_code(code: str) -> None:
    check_code(code)


@pytest.mark.parametrize(
    ("code", "line"),
    [
        ("x = 1\ny = x.__class__", 2),
        ("import numpy.ctypeslib", 1),
        ("result = '{0.real}'.format(1)", 1),
        ("result = df.query('@pd.io')", 1),
        ("pd.Series.sum = len", 1),
    ],
)
def test_static_check_rejects_with_the_line(code: str, line: int) -> None:
    with pytest.raises(CodeRejected) as rejected:
        check_code(code)
    assert rejected.value.line == line


def test_guarded_module_refuses_closed_names_and_foreign_modules() -> None:
    guarded = GuardedModule(pd)
    assert guarded.DataFrame is pd.DataFrame
    assert isinstance(guarded.core, GuardedModule)  # allowed modules come back guarded
    with pytest.raises(SandboxViolation):
        guarded.read_csv  # noqa: B018 - the access itself is what is refused
    with pytest.raises(SandboxViolation):
        guarded.core.common.os  # noqa: B018
    with pytest.raises(SandboxViolation):
        guarded.anything = 1


def test_restricted_import_hands_out_guarded_modules() -> None:
    table = make_builtins()
    assert "open" not in table and "eval" not in table
    imported = table["__import__"]("numpy.linalg")
    assert isinstance(imported, GuardedModule)
    with pytest.raises(SandboxViolation):
        table["__import__"]("os")


def test_values_render_as_documented() -> None:
    rendered = [
        render_value(v)
        for v in (None, np.nan, pd.NaT, 3.0, 2.5, True, np.int64(4), pd.Timestamp("2020-01-02"))
    ]
    assert rendered == ["None", "None", "None", "3", "2.5", "True", "4", "2020-01-02"]
    frame = pd.DataFrame({"a": [1, 2], "b": ["x", None]})
    assert normalise(frame, Limits()).rows == [[1, "x"], [2, None]]
    assert normalise({2, 1}, Limits()).rows == [[1], [2]]
    capped = normalise(list(range(20)), Limits(max_rows=5))
    assert capped.truncated and len(capped.rows) == 5


def test_tripwire_refuses_unpickling_and_compiling_other_code() -> None:
    import ast
    import collections
    import pickle

    from plugins.executor.tripwire import Tripwire

    tripwire = Tripwire()
    program = compile("result = 1", "<pandora-code>", "exec")
    tripwire.arm(program)
    try:
        exec(program, {})
        ast.parse("a + 1")
        collections.namedtuple("Pair", "name age")
        with pytest.raises(SandboxViolation):
            pickle.loads(b"cbuiltins\ngetattr\n.")
        with pytest.raises(SandboxViolation):
            compile("1 + 1", "<string>", "eval")
    finally:
        tripped = tripwire.disarm()
    assert tripped.startswith("compile of code other than the program is not allowed")
    assert pickle.loads(pickle.dumps([1, "a"])) == [1, "a"]


def test_tripwire_refuses_matplotlib_where_charts_were_not_prepared() -> None:
    import importlib
    import sys

    from plugins.executor.charts import drawing_prepared
    from plugins.executor.tripwire import Tripwire

    assert not drawing_prepared() and "matplotlib.sankey" not in sys.modules
    tripwire = Tripwire()
    tripwire.arm()
    try:
        with pytest.raises(SandboxViolation, match="not prepared"):
            importlib.import_module("matplotlib.sankey")
    finally:
        tripwire.disarm()
