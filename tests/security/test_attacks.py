"""The adversarial battery: each program must end in a clear error with
nothing done (no file, no connection, data unchanged, pool still answering).

DIR and PORT in a program are replaced by the sandbox directory and the port
of a local TCP server that counts connections.
"""

from __future__ import annotations

import pytest

ATTACKS = {
    # class-hierarchy escapes
    "subclasses": "result = ().__class__.__mro__[-1].__subclasses__()",
    "subclasses_via_base": "result = ''.__class__.__base__.__subclasses__()",
    "type_mro": "result = type(()).mro()[-1]",
    "object_subclasses_name": "result = object.__subclasses__()",
    "dunder_string_agg": "result = people.age.agg('__class__')",
    "match_class_dunder": (
        "match people:\n    case object(__class__=c):\n        result = c.__subclasses__()"
    ),
    # imports and builtins that run code
    "dunder_import": "os = __import__('os')\nresult = os.listdir('/')",
    "import_os": "import os\nos.system('touch DIR/pwned')",
    "import_subprocess": "import subprocess\nsubprocess.run(['touch', 'DIR/pwned'])",
    "import_socket": "import socket\nsocket.create_connection(('127.0.0.1', PORT))",
    "import_ctypes": "import ctypes\nctypes.CDLL(None).system(b'touch DIR/pwned')",
    "import_importlib": "import importlib\nresult = importlib.import_module('os')",
    "from_import_private": "from pandas import _libs\nresult = _libs",
    "from_numpy_ctypeslib": "from numpy import ctypeslib\nresult = ctypeslib",
    "relative_import": "from . import secrets\nresult = 1",
    "eval": "result = eval('1+1')",
    "exec": "exec('import os')",
    "compile": "result = compile('1', 'x', 'eval')",
    "open_write": "open('DIR/pwned', 'w').write('x')",
    "open_read": "result = open('/etc/passwd').read()",
    "builtins_name": "result = __builtins__['open']",
    "globals": "result = globals()",
    "vars": "result = vars(pd)",
    # builtins reached through functions, frames, generators
    "function_globals": "def f(): pass\nresult = f.__globals__['__builtins__']",
    "lambda_globals": "result = (lambda: 0).__globals__",
    "generator_frame": "g = (i for i in [1])\nresult = g.gi_frame.f_back.f_globals",
    "traceback_frame": "try:\n    1/0\nexcept Exception as e:\n    t = e.__traceback__.tb_frame",
    "coroutine_frame": "async def c(): pass\nresult = c().cr_frame",
    # format strings and getattr
    "format_attribute": "result = '{0.__class__.__mro__}'.format(people)",
    "format_dynamic": "t = '{0.__class__}'\nresult = t.format(people)",
    "format_map": "result = '{x.__class__}'.format_map({'x': people})",
    "getattr_dynamic": "name = '__cla' + 'ss__'\nresult = getattr(people, name)",
    "getattr_chain": "result = getattr(getattr(pd, 'io'), 'common')",
    "getattr_private": "result = getattr(pd, '_libs')",
    # calls hidden in decorators and lambdas
    "decorator_eval": "@eval\ndef f(): pass",
    "lambda_open": "f = lambda p: open(p, 'w')\nf('DIR/pwned')",
    "decorator_breakpoint": "@breakpoint\ndef f(): pass",
    # pandas / numpy doors
    "read_csv_url": "result = pd.read_csv('http://127.0.0.1:PORT/x.csv')",
    "read_csv_file": "result = pd.read_csv('/etc/passwd')",
    "to_csv_file": "people.to_csv('DIR/out.csv')",
    "to_csv_relative": "people.to_csv('out.csv')",
    "to_json_file": "people.to_json('DIR/out.json')",
    "to_pickle": "people.to_pickle('DIR/out.pkl')",
    "to_excel": "people.to_excel('DIR/out.xlsx')",
    "query_module_escape": "result = people.query('@pd.io.common.os.system(\"touch DIR/pwned\")')",
    "query_dynamic_escape": "q = '@pd.io' + '.common'\nresult = people.query(q)",
    "pd_eval": "result = pd.eval('1+1')",
    "df_eval": "result = people.eval('age * 2')",
    "np_load_pickle": "result = np.load('DIR/x.npy', allow_pickle=True)",
    "np_save": "np.save('DIR/out.npy', np.arange(3))",
    "np_ctypeslib": "result = np.ctypeslib.load_library('libc', '/lib')",
    "np_f2py": "np.f2py.compile('x', modulename='m')",
    "tofile": "people.age.to_numpy().tofile('DIR/out.bin')",
    "module_attribute_os": "result = pd.io.common.os",
    "np_os": "result = np.os",
    "module_setattr": "pd.DataFrame.head = lambda self, n=5: 'pwned'\nresult = 1",
    "type_setattr": "type(people).head = lambda self, n=5: 'pwned'\nresult = 1",
    "writable_view": "a = people.age.to_numpy()\na.setflags(write=True)\na[0] = 0",
    # resources
    "infinite_loop": "while True:\n    pass",
    "memory_bomb_string": "x = 'a' * (10 ** 11)",
    "memory_bomb_list": "x = [0] * (10 ** 11)",
    "memory_bomb_frame": "x = pd.DataFrame(np.zeros((10 ** 6, 10 ** 5)))",
    "fork_bomb": "import os\nwhile True:\n    os.fork()",
    "thread_bomb": "import threading\nwhile True:\n    threading.Thread(target=lambda: 0).start()",
    "deep_recursion": "def f(n):\n    return f(n + 1)\nresult = f(0)",
    "system_exit": "raise SystemExit(0)",
    "no_result": "x = 1",
}

SLOW = {"infinite_loop"}


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(code, id=name, marks=[pytest.mark.slow] if name in SLOW else [])
        for name, code in ATTACKS.items()
    ],
)
def test_attack_ends_in_a_clear_error_with_nothing_done(sandbox, code: str) -> None:
    port = str(sandbox.listener.port)
    program = code.replace("DIR", str(sandbox.directory)).replace("PORT", port)
    outcome = sandbox.run(program, timeout=2.0)
    assert outcome.result is None
    assert outcome.error is not None
    assert outcome.error.type and outcome.error.message
    sandbox.assert_nothing_done()


def test_battery_is_large_enough() -> None:
    assert len(ATTACKS) >= 40


def test_a_mutated_box_is_clean_in_the_next_run(sandbox) -> None:
    mutations = [
        "people.loc[0, 'age'] = 1000\npeople['name'] = 'x'\nresult = int(people.age.sum())",
        "people.drop(index=[0, 1], inplace=True)\nresult = len(people)",
        "people.sort_values('age', inplace=True)\npeople.reset_index(drop=True, inplace=True)\n"
        "result = people.name.iloc[0]",
        "people.iloc[:, 2] = 0\npeople.columns = ['a', 'b', 'c', 'd', 'e']\nresult = 1",
    ]
    for program in mutations:
        outcome = sandbox.run(program)
        assert outcome.error is None, outcome.error
        sandbox.assert_nothing_done()


def test_huge_output_is_capped(sandbox) -> None:
    outcome = sandbox.run("print('x' * 10_000_000)\nresult = list(range(10 ** 6))")
    assert outcome.error is None
    assert outcome.truncated
    assert len(outcome.stdout) <= sandbox.pool.limits.max_stdout_chars
    assert len(outcome.result) == sandbox.pool.limits.max_rows
    huge_cell = sandbox.run("result = 'y' * 10_000_000")
    assert huge_cell.truncated
    assert len(huge_cell.result[0][0]) == sandbox.pool.limits.max_cell_chars
    sandbox.assert_nothing_done()


def test_a_caught_violation_still_fails_the_run(sandbox) -> None:
    program = "try:\n    people.to_csv('DIR/out.csv')\nexcept Exception:\n    pass\nresult = 1"
    outcome = sandbox.run(program.replace("DIR", str(sandbox.directory)))
    # the runtime door raised inside the program, which swallowed it: the write
    # still did not happen, and the run still answers (the door is not a tripwire)
    assert outcome.result == [[1]]
    sandbox.assert_nothing_done()


def test_timeout_replaces_the_worker(sandbox) -> None:
    outcome = sandbox.run("while True:\n    pass", timeout=0.5)
    assert outcome.error.type == "Timeout"
    sandbox.assert_nothing_done()
