"""Doors found in the Python layers (issue 25): library functions that
evaluate strings with the real builtins, unpickle bytes a program wrote, or
import a module a program names. Each must end in a clear error with nothing
done; none may hand the program a real builtin or another module's globals.
"""

from __future__ import annotations

import pytest

NPY_HEADER = "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"
NPY_OBJECT_ARRAY = (
    "header = NPY_HEADER.ljust(64 - 10 - 1) + chr(10)\n"
    "data = b'\\x93NUMPY\\x01\\x00' + bytes([len(header), 0]) + header.encode()"
    " + b'cbuiltins\\ngetattr\\n.'\n"
)
"""A .npy file of one object whose pickle is the real `getattr`."""

FAKE_FILE = (
    "class Reader:\n"
    "    def __init__(self, data):\n"
    "        self.data = data\n"
    "        self.at = 0\n"
    "    def read(self, size=-1):\n"
    "        end = len(self.data) if size < 0 else self.at + size\n"
    "        chunk = self.data[self.at:end]\n"
    "        self.at += len(chunk)\n"
    "        return chunk\n"
    "    def readline(self):\n"
    "        end = self.data.index(b'\\n', self.at) + 1\n"
    "        chunk = self.data[self.at:end]\n"
    "        self.at = end\n"
    "        return chunk\n"
)

DOORS = {
    "typing_hints_return_a_real_builtin": (
        "import typing\nclass A:\n    g: 'getattr'\nresult = str(typing.get_type_hints(A)['g'])"
    ),
    "typing_hints_of_a_wrapped_function_use_its_globals": (
        "import functools, random, typing\ndef f(x: 'sorted(_os.environ)'):\n    pass\n"
        "g = functools.wraps(random.choice, assigned=())(f)\n"
        "result = typing.get_type_hints(g)['x']"
    ),
    "typing_forward_reference_in_another_module": (
        "import typing\n"
        "P = typing.NamedTuple('P', [('g', typing.ForwardRef('sorted(environ)', module='os'))])\n"
        "result = typing.get_type_hints(P)['g']"
    ),
    "typing_overloads_of_a_library": (
        "import typing\nresult = str(typing.get_overloads(pd.DataFrame.reset_index))"
    ),
    "singledispatch_evaluates_in_a_wrapped_function_globals": (
        "import functools, random\ndef f(x: 'sorted(_os.environ)'):\n    pass\n"
        "g = functools.wraps(random.choice, assigned=())(f)\n"
        "dispatch = functools.singledispatch(lambda x: x)\ndispatch.register(g)\nresult = 1"
    ),
    "pandas_compat_unpickles_program_bytes": (
        "from pandas.compat import pickle_compat\n"
        "result = str(pickle_compat.loads(b'cbuiltins\\ngetattr\\n.'))"
    ),
    "pandas_compat_as_attribute": (
        "result = str(pd.compat.pickle_compat.loads(b'cbuiltins\\ngetattr\\n.'))"
    ),
    "numpy_reads_a_pickled_array_from_a_program_file": (
        f"NPY_HEADER = {NPY_HEADER!r}\n{NPY_OBJECT_ARRAY}{FAKE_FILE}"
        "from numpy.lib import format as npy\n"
        "result = str(npy.read_array(Reader(data), allow_pickle=True))"
    ),
    "bytes_naming_a_dunder": "result = b'__globals__'.decode()",
    "styler_format_walks_attributes_of_cells": (
        "template = '{0._' + '_class_' + '_._' + '_module_' + '_}'\n"
        "result = people.style.format_index(template).to_html()"
    ),
    "plotting_backend_option_imports_a_module": (
        "pd.set_option('plotting.backend', 'this')\nresult = 1"
    ),
    "plotting_backend_attribute_imports_a_module": (
        "pd.options.plotting.backend = 'this'\nresult = 1"
    ),
    "plot_backend_argument_imports_a_module": "people.plot(backend='this')\nresult = 1",
    "group_plot_backend_argument_imports_a_module": (
        "people.groupby('city_id').plot(backend='this')\nresult = 1"
    ),
}


@pytest.mark.parametrize("code", [pytest.param(code, id=name) for name, code in DOORS.items()])
def test_door_ends_in_a_clear_error_with_nothing_done(sandbox, code: str) -> None:
    outcome = sandbox.run(code)
    assert outcome.result is None, outcome.result
    assert outcome.error is not None
    assert outcome.error.type in {"SandboxViolation", "CodeRejected"}, outcome.error
    assert "Beautiful is better" not in outcome.stdout  # the module `this` was not imported
    sandbox.assert_nothing_done()


def test_typing_still_annotates(sandbox) -> None:
    code = (
        "from typing import List, Optional\nnames = List['str']\n"
        "def ages(frame) -> List[int]:\n    return frame.age.tolist()\n"
        "limit: Optional[int] = None\nresult = ages(people)"
    )
    outcome = sandbox.run(code)
    assert outcome.error is None, outcome.error
    assert outcome.result == [[36], [25], [41], [29], [52]]


def test_latex_still_renders(sandbox) -> None:
    outcome = sandbox.run("result = people[['name', 'age']].head(2).to_latex(longtable=True)")
    assert outcome.error is None, outcome.error
    assert "Ada & 36" in outcome.result[0][0]


def test_named_tuples_and_networkx_still_work(sandbox) -> None:
    code = (
        "import collections\nimport networkx as nx\n"
        "Pair = collections.namedtuple('Pair', 'name age')\n"
        "graph = nx.path_graph(4)\n"
        "result = [Pair('Ada', 36).age, nx.shortest_path_length(graph, 0, 3)]"
    )
    outcome = sandbox.run(code)
    assert outcome.error is None, outcome.error
    assert outcome.result == [[36], [3]]
