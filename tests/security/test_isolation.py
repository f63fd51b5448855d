"""Nothing a program does is visible to a later one, and no secret of the
caller's is inside: each adversarial program runs between two runs of an
innocent probe in ONE long-lived pool (this test process), and the probe's
answers must be identical to its answers before any attack.

Programs are written as an attacker would: state patched through aliases
and loop variables, shared buffers made writable, library settings changed,
secrets looked for through format strings, query expressions, hidden
modules and private names. An environment-variable canary is set before
the pool starts; no outcome may contain it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from plugins import Focus, Workspace, load_source
from plugins.executor import ExecutionResult, ExecutorPool

CANARY_VARIABLE = "PANDORA_TEST_CANARY_API_KEY"
CANARY = "canary-7f3a9c-never-returned"

PROBE = """
import decimal, calendar, collections, json
result = [
    len(people), int(people.age.sum()), people.name.iloc[0], str(people.age.dtype),
    len(people.merge(cities, left_on='city_id', right_on='id')),
    int(people.age.to_numpy()[0]), int(people['age'].iloc[0]),
    str(np.geterr()), str(np.array([1.23456789])), str(decimal.getcontext().prec),
    float(np.random.random()), calendar.firstweekday(),
    str(pd.get_option('display.max_rows')), collections.Counter('aab').most_common(1)[0][0],
    int(people.nunique().sum()), int(people.age.agg('sum')), json.dumps([1]),
    len(people.query('age > 30')), int(people.groupby('city_id').age.sum().max()),
    len(cities), str(cities.name.tolist()), people.columns.tolist()[1],
    str(people.age.head(2).tolist()), people.name.str.upper().iloc[1],
]
"""
"""Reads every piece of state the attacks below try to change."""

STATE_ATTACKS = {
    "alias_patches_merge": "c = pd.DataFrame\nc.merge = lambda *a, **k: 42\nresult = 1",
    "loop_variable_patches_sum": (
        "for c in [pd.Series, pd.DataFrame]:\n    c.sum = lambda *a, **k: 42\nresult = 1"
    ),
    "alias_patches_head": "k = pd.Series\nk.head = lambda self, n=5: self.iloc[:1]\nresult = 1",
    "alias_patches_query": (
        "k = pd.DataFrame\nk.query = lambda self, *a, **kw: self.iloc[:1]\nresult = 1"
    ),
    "accessor_shadows_method": (
        "@pd.api.extensions.register_dataframe_accessor('nunique')\n"
        "class Fake:\n    def __init__(self, frame):\n        self.frame = frame\n"
        "    def __call__(self):\n        return pd.Series([42])\nresult = 1"
    ),
    "series_accessor_shadows_str": (
        "@pd.api.extensions.register_series_accessor('str')\n"
        "class Fake:\n    def __init__(self, s):\n        pass\nresult = 1"
    ),
    "writable_flag_then_write": (
        "a = people.age.to_numpy()\na.flags['WRITEABLE'] = True\na[0] = 999\nresult = int(a[0])"
    ),
    "write_through_iloc": "people.iloc[0, 2] = 999\npeople['name'] = 'x'\nresult = 1",
    "write_through_values": "v = people.age.values\nv[:] = 0\nresult = 1",
    "inplace_drop_and_rename": (
        "people.drop(index=[0, 1], inplace=True)\ncities.rename(columns={'name': 'n'}, "
        "inplace=True)\nresult = len(people)"
    ),
    "np_seterr": "np.seterr(all='raise')\nresult = 1",
    "np_printoptions": "np.set_printoptions(precision=1)\nresult = 1",
    "decimal_context": "import decimal\ndecimal.getcontext().prec = 2\nresult = 1",
    "random_seed": "import random\nrandom.seed(42)\nresult = random.random()",
    "numpy_seed": "np.random.seed(42)\nresult = float(np.random.random())",
    "calendar_state": "import calendar\ncalendar.setfirstweekday(6)\nresult = 1",
    "pandas_option": "pd.set_option('display.max_rows', 1)\nresult = 1",
    "pandas_options_attribute": "pd.options.display.max_rows = 3\nresult = 1",
    "counter_patched_through_alias": (
        "import collections\nk = collections.Counter\nk.most_common = lambda *a: [('z', 9)]\n"
        "result = 1"
    ),
    "json_module_patched": "import json\nj = json\nj.dumps = lambda *a, **k: 'x'\nresult = 1",
    "agg_patched": "k = pd.Series\nk.agg = lambda *a, **kw: 0\nresult = 1",
    "groupby_patched": "k = pd.DataFrame\nk.groupby = lambda *a, **kw: None\nresult = 1",
    "columns_replaced": "people.columns = list('abcde')\ncities.columns = list('xyz')\nresult = 1",
    "string_methods_patched": "k = pd.Series\nk.str = None\nresult = 1",
    "class_attribute_holds_memory": (
        "k = pd.DataFrame\nk.ballast = bytearray(1_500_000_000)\nresult = len(k.ballast)"
    ),
    "thread_left_running": (
        "import threading\nthreading.Thread(target=lambda: None, daemon=True).start()"
    ),
    "signal_timer": "import signal\nsignal.setitimer(signal.ITIMER_REAL, 0.01)\nresult = 1",
    "infinite_generator_kept": (
        "k = pd.DataFrame\nk.keep = (i for i in iter(int, 1))\nresult = next(k.keep)"
    ),
}
"""Each changes state that would outlive a run in a reused process."""

SECRET_ATTACKS = {
    "format_walks_attributes": "result = '{0.__class__.__mro__}'.format(people)",
    "format_built_at_run_time": "t = '{0.' + 'real}'\nresult = t.format(1)",
    "format_fetched_with_getattr": "f = getattr('{0.real}', 'format')\nresult = f(1)",
    "format_bound_method_literal": "f = '{0.real.imag}'.format\nresult = f(1)",
    "format_of_str_class": "f = str.format\nresult = f('{0.real}', 1)",
    "format_map_item_walk": "result = '{x[0]}'.format_map({'x': [1]})",
    "format_from_join": "result = ''.join(['{0', '.real}']).format(1)",
    "format_via_type": "result = type('').format('{0.real}', 1)",
    "format_dunder_pieces": (
        "d = '_' * 2\nt = '{0.' + d + 'init' + d + '.' + d + 'globals' + d + '}'\n"
        "result = t.format(people)"
    ),
    "query_attribute_of_local": "g = (i for i in [1])\nresult = people.query('(@g).gi_frame')",
    "query_built_at_run_time": (
        "g = (i for i in [1])\nq = '(@g)' + '.gi_frame'\nresult = people.query(q)"
    ),
    "query_level_walks_frames": "result = people.query('age > 1', level=3)",
    "query_local_dict": "result = people.query('age > x', local_dict={'x': 1})",
    "query_dunder_name": "q = '__' + 'import__'\nresult = people.query(q)",
    "query_private_attribute": "q = 'age._' + 'mgr'\nresult = people.query(q)",
    "expression_engine_import": "import pandas.core.computation.eval as e\nresult = e",
    "expression_engine_from_import": "from pandas.core.computation import expr\nresult = expr",
    "expression_engine_attribute": "result = pd.core.computation.eval.eval('1+1')",
    "stride_tricks_import": "from numpy.lib.stride_tricks import as_strided\nresult = 1",
    "stride_tricks_attribute": "result = np.lib.stride_tricks.as_strided(np.zeros(1), (10**6,))",
    "plotting_backend_imports": "pd.set_option('plotting.backend', 'os')\nresult = people.plot()",
    "plotting_module": "import pandas.plotting\nresult = 1",
    "agg_private_name": "result = people.age.agg('_' + '_class__')",
    "apply_private_name": "result = people.apply('_' + 'constructor')",
    "groupby_agg_private_name": "result = people.groupby('city_id').agg({'age': '_' + 'mgr'})",
    "transform_private_name": "result = people.age.transform(['sum', '_' + 'values'])",
    "getattr_private_built": "n = '_' + 'mgr'\nresult = getattr(people, n)",
    "getattr_format_method": "result = getattr('{0}', 'format_map')",
    "environ_through_module_attribute": "result = pd.io.common.os.environ",
    "environ_through_json_module": "import json\nresult = json.decoder.re.sys.modules",
    "read_dotenv": "result = open('.env').read()",
    "read_dotenv_with_pandas": "result = pd.read_csv('.env')",
    "path_object_from_networkx": (
        "import networkx as nx\nresult = nx.utils.Path('.env').read_text()"
    ),
}
"""Each tries to read something the caller holds (environment, files, memory)."""


@pytest.fixture(scope="module")
def canary_environment() -> Iterator[None]:
    """A secret in the caller's environment before the pool starts."""
    os.environ[CANARY_VARIABLE] = CANARY
    yield
    del os.environ[CANARY_VARIABLE]


@pytest.fixture(scope="module")
def people_workspace(sandbox) -> Workspace:
    return sandbox.workspace


@pytest.fixture(scope="module")
def pool(canary_environment, people_workspace) -> Iterator[ExecutorPool]:
    """ONE long-lived pool for every attack and probe of this module."""
    found = ExecutorPool(max_workers=1)
    found.warm(people_workspace)
    yield found
    found.shutdown()


@pytest.fixture(scope="module")
def baseline(pool, people_workspace) -> ExecutionResult:
    """The probe's answer before any attack (a template never runs programs
    itself, so this is what every run must see; random generators included,
    as each run starts from the template's state: `random` reseeds itself in
    each new process, numpy's global generator does not)."""
    answer = pool.execute(PROBE, people_workspace)
    assert answer.error is None, answer.error
    return answer


def _assert_no_canary(outcome: ExecutionResult) -> None:
    assert CANARY not in outcome.model_dump_json()


def _run_between_probes(pool, workspace, baseline, program: str) -> ExecutionResult:
    before = pool.execute(PROBE, workspace)
    outcome = pool.execute(program, workspace, timeout_seconds=5.0)
    after = pool.execute(PROBE, workspace)
    assert before.result == baseline.result
    assert after.result == baseline.result, f"{program!r} changed a later run"
    for run in (before, outcome, after):
        _assert_no_canary(run)
    return outcome


def test_the_battery_is_large_enough() -> None:
    assert len(STATE_ATTACKS) + len(SECRET_ATTACKS) >= 40


@pytest.mark.parametrize(
    "program", [pytest.param(code, id=name) for name, code in STATE_ATTACKS.items()]
)
def test_no_state_outlives_its_run(pool, people_workspace, baseline, program: str) -> None:
    _run_between_probes(pool, people_workspace, baseline, program)


@pytest.mark.parametrize(
    "program", [pytest.param(code, id=name) for name, code in SECRET_ATTACKS.items()]
)
def test_no_door_to_a_secret_opens(
    pool, people_workspace, baseline, program: str, sandbox, monkeypatch
) -> None:
    monkeypatch.chdir(sandbox.directory)  # a .env beside the caller would be here
    (sandbox.directory / ".env").write_text(f"API_KEY={CANARY}\n")
    try:
        outcome = _run_between_probes(pool, people_workspace, baseline, program)
    finally:
        (sandbox.directory / ".env").unlink()
    assert outcome.result is None
    assert outcome.error is not None and outcome.error.message


def test_innocent_uses_of_the_closed_doors_keep_working(pool, people_workspace) -> None:
    program = (
        "t = 30\n"
        "result = [str(people.age.dtype), len(people.query('age > @t')), '{:>4}'.format(7),\n"
        "          int(people.age.agg('sum')), int(people.groupby('city_id').agg({'age': 'max'})"
        ".age.max()),\n"
        "          f'{people.age.mean():.1f}', int(people.age.transform(['abs']).iloc[0, 0])]"
    )
    outcome = pool.execute(program, people_workspace)
    assert outcome.error is None, outcome.error
    assert outcome.result == [["int64"], [3], ["   7"], [183], [52], ["36.6"], [36]]


def test_the_template_holds_no_secret_and_no_caller_descriptor(pool) -> None:
    (pid,) = pool.template_pids()
    environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert not any(CANARY.encode() in entry for entry in environment)
    names = {entry.split(b"=", 1)[0].decode() for entry in environment if entry}
    assert names <= {"LANG", "LC_ALL", "LC_CTYPE", "TZ", "OPENBLAS_NUM_THREADS"} | {
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMEXPR_MAX_THREADS",
    } | {name for name in names if name.startswith(("PANDORA_KG_", "PANDORA_SPARQL_"))}
    deadline = time.monotonic() + 20  # the last run's child is reaped, the next one forked
    while not _settled(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    spares = _children(pid)  # every run's process is gone but the next two runs', waiting
    assert len(spares) == 2
    targets = _descriptor_targets(pid)
    sockets = [target for target in targets if target.startswith("socket:")]
    assert len(sockets) == 2  # its control socket and a spare's channel: nothing else
    assert not [target for target in targets if target.startswith("pipe:")]
    for spare in spares:
        spare_targets = _descriptor_targets(spare)
        assert sorted(spare_targets)[:3] == ["/dev/null"] * 3
        assert len(spare_targets) == 4 and spare_targets[-1].startswith("socket:")


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _settled(pid: int) -> bool:
    """Two children, alive and locked down (their ruleset descriptor closed)."""
    children = _children(pid)
    if len(children) != 2:
        return False
    for child in children:
        try:
            state = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if state == "Z" or len(_descriptor_targets(child)) != 4:
                return False
        except FileNotFoundError:  # the child exited, or closed a descriptor as it was read
            return False
    return True


def _descriptor_targets(pid: int) -> list[str]:
    return [os.readlink(link) for link in Path(f"/proc/{pid}/fd").iterdir()]


def test_a_kg_graph_mutation_does_not_reach_the_next_run(examples) -> None:
    """networkx: node attribute lists that `graph.copy()` would share."""
    workspace = Workspace.of([load_source(str(examples / "films.ttl"))])
    focus = Focus(entities=("Alfred Hitchcock",))
    probe = "result = sorted((str(n), str(sorted(d.items()))) for n, d in graph.nodes(data=True))"
    attack = (
        "for node, data in graph.nodes(data=True):\n"
        "    for value in data.values():\n"
        "        if isinstance(value, list):\n"
        "            value.append('poisoned')\n"
        "    data['extra'] = 1\n"
        "graph.add_node('intruder')\nresult = graph.number_of_nodes()"
    )
    pool = ExecutorPool(max_workers=1)
    try:
        before = pool.execute(probe, workspace, "networkx", focus=focus)
        attacked = pool.execute(attack, workspace, "networkx", focus=focus)
        after = pool.execute(probe, workspace, "networkx", focus=focus)
    finally:
        pool.shutdown()
    assert before.error is None and attacked.error is None, (before.error, attacked.error)
    assert after.result == before.result
