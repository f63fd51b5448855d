"""Benign programs of the kinds in the Pandora and KG2Code appendices must
work through real workers, with the real `pandas` representation over a CSV
file and a SQLite database written here, and return the right rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from plugins import Workspace, load_source
from plugins.executor import ExecutorPool

EMPLOYEES = """id,name,dept,salary,hired,email
1,Ada,eng,120,2019-03-01,ada@corp.io
2,Bob,eng,100,2020-07-15,bob@corp.io
3,Cy,ops,90,2018-01-20,cy@ops.net
4,Dee,sales,80,2021-11-02,dee@corp.io
5,Eve,ops,95,2017-05-30,eve@ops.net
"""

BENIGN = [
    ("filter", "result = employees[employees.salary > 95].name", [["Ada"], ["Bob"]]),
    (
        "merge",
        "m = employees.merge(depts, left_on='dept', right_on='code')\n"
        "result = m[m.floor == 3].name.sort_values()",
        [["Cy"], ["Eve"]],
    ),
    (
        "groupby_size",
        "result = employees.groupby('dept').size().reset_index(name='n')",
        [["eng", 2], ["ops", 2], ["sales", 1]],
    ),
    (
        "nlargest",
        "result = employees.nlargest(2, 'salary')[['name', 'salary']]",
        [["Ada", 120], ["Bob", 100]],
    ),
    (
        "str_extract",
        "result = employees.email.str.extract(r'@(\\w+)\\.')[0].unique().tolist()",
        [["corp"], ["ops"]],
    ),
    (
        "to_datetime",
        "d = pd.to_datetime(employees.hired)\nresult = employees[d.dt.year < 2019].name",
        [["Cy"], ["Eve"]],
    ),
    ("isin", "result = employees[employees.dept.isin(['ops', 'sales'])].id", [[3], [4], [5]]),
    ("not_isin", "result = employees[~employees.dept.isin(['ops', 'sales'])].id", [[1], [2]]),
    (
        "nested_filter",
        "rich = employees[employees.salary >= 90]\n"
        "result = rich[rich.dept.isin(depts[depts.floor > 2].code)].name",
        [["Cy"], ["Eve"]],
    ),
    ("set_operations", "a = set(employees.dept)\nb = set(depts.code)\nresult = b - a", [["hr"]]),
    ("set_intersection", "result = sorted(set(employees.dept) & {'eng', 'hr'})", [["eng"]]),
    ("scalar_mean", "result = employees.salary.mean()", [[97]]),
    ("scalar_float", "result = employees.salary.mean() / 4", [[24.25]]),
    ("count_bool", "result = bool((employees.salary > 200).any())", [[False]]),
    ("query_local", "cut = 95\nresult = employees.query('salary > @cut').name", [["Ada"], ["Bob"]]),
    ("sort_values", "result = employees.sort_values('hired').name.head(2)", [["Eve"], ["Cy"]]),
    (
        "apply_lambda",
        "result = employees.name.apply(lambda s: s.upper()).tolist()[:2]",
        [["ADA"], ["BOB"]],
    ),
    (
        "graph_traversal",
        "import networkx as nx\n"
        "g = nx.DiGraph()\n"
        "g.add_edges_from(zip(managers.employee, managers.manager))\n"
        "result = sorted(nx.descendants(g, 2))",
        [[3], [4], [5]],
    ),
    (
        "graph_shortest_path",
        "import networkx as nx\n"
        "g = nx.Graph(list(zip(managers.employee, managers.manager)))\n"
        "result = nx.shortest_path(g, 1, 5)",
        [[1], [2], [3], [5]],
    ),
    (
        "kgqa_function",
        "def KGQA(question, graph):\n    return question",
        None,  # the pandas representation has no `question`: a clear NoResult
    ),
    (
        "missing_values",
        "result = depts.set_index('code').reindex(['eng', 'xx']).floor",
        [["eng", 2], ["xx", None]],
    ),
    (
        "imports_allowed",
        "import math, re, json, collections, itertools, functools, statistics\n"
        "result = [math.floor(2.5), re.sub('a', 'b', 'aa'), json.dumps([1]), "
        "collections.Counter('aab')['a'], statistics.median([1, 3, 5])]",
        [[2], ["bb"], ["[1]"], [2], [3]],
    ),
    ("print_and_result", "print('hello')\nresult = len(employees)", [[5]]),
    (
        "to_csv_text",
        "result = employees.head(1)[['id', 'name']].to_csv(index=False)",
        [["id,name\n1,Ada\n"]],
    ),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    directory = tmp_path_factory.mktemp("benign")
    (directory / "employees.csv").write_text(EMPLOYEES)
    database = directory / "company.sqlite"
    with sqlite3.connect(database) as connection:
        connection.executescript(
            """
            CREATE TABLE depts (code TEXT PRIMARY KEY, floor INTEGER);
            INSERT INTO depts VALUES ('eng', 2), ('ops', 3), ('sales', 1), ('hr', 1);
            CREATE TABLE managers (employee INTEGER, manager INTEGER);
            INSERT INTO managers VALUES (1, 2), (2, 3), (3, 4), (3, 5);
            """
        )
    connection.close()
    return Workspace.of([load_source(str(directory / "employees.csv")), load_source(str(database))])


@pytest.fixture(scope="module")
def pool() -> Iterator[ExecutorPool]:
    found = ExecutorPool(max_workers=1)
    yield found
    found.shutdown()


@pytest.mark.parametrize(("code", "expected"), [pytest.param(c, e, id=n) for n, c, e in BENIGN])
def test_benign_program_returns_the_right_rows(pool, workspace, code, expected) -> None:
    outcome = pool.execute(code, workspace, "pandas")
    if expected is None:
        assert outcome.error.type == "NoResult"
        return
    assert outcome.error is None, outcome.error
    assert outcome.result == expected


def test_benign_set_is_large_enough() -> None:
    assert len(BENIGN) >= 20


def test_printed_output_is_returned(pool, workspace) -> None:
    outcome = pool.execute("print('hello')\nresult = 1", workspace, "pandas")
    assert outcome.stdout == "hello\n"


def test_error_reports_the_line_of_the_program(pool, workspace) -> None:
    outcome = pool.execute("x = 1\ny = employees['nope']\nresult = y", workspace, "pandas")
    assert outcome.error.type == "KeyError"
    assert outcome.error.line == 2


def test_pandas_code_without_result_is_told_to_assign_result(pool, workspace) -> None:
    """pandas has no `graph`, so the message does not send the LLM to KGQA."""
    outcome = pool.execute("frame = employees[employees.salary > 95]", workspace, "pandas")
    assert outcome.error.type == "NoResult"
    assert outcome.error.message == "the code must assign `result`"
