"""The caller is safe whatever a child sends: every output attack ends within
its timeout (plus a small margin) and grows the caller's memory by at most
the caps allow; what comes back is capped in rows, cells, characters, error
type and message, stdout, and is valid UTF-8 with identifier type names."""

from __future__ import annotations

import resource
import time

import pytest

from plugins.executor import ExecutorPool, Limits

TIMEOUT_SECONDS = 3.0
WALL_MARGIN_SECONDS = 3.0
MEMORY_MARGIN_BYTES = 300 * 1024 * 1024
"""Generous next to the result byte limit (about 30 MB) and what parsing it costs."""

OUTPUT_ATTACKS = {
    "seventy_million_empty_cells": "result = [[''] * 7000] * 10000",
    "seventy_million_none_cells": "result = pd.DataFrame(np.empty((10000, 7000), dtype=object))",
    "head_ignores_its_argument": (
        "class Big(pd.DataFrame):\n    def head(self, n=5):\n        return self\n"
        "result = Big({'a': np.arange(3_000_000)})"
    ),
    "iloc_ignores_its_argument": (
        "class Big(pd.DataFrame):\n    @property\n    def iloc(self):\n"
        "        return {slice(None, 10000): self}\nresult = Big({'a': np.arange(3_000_000)})"
    ),
    "million_columns": "result = pd.DataFrame(columns=range(1_000_000))",
    "huge_cell": "result = 'y' * 50_000_000",
    "many_long_cells": "result = ['z' * 9_999] * 10_000",
    "huge_error_type_name": "raise type('E' * 20_000_000, (Exception,), {})('boom')",
    "newline_in_error_type": "raise type('Evil\\npandora: Forged', (Exception,), {})('x')",
    "huge_error_message": "raise ValueError('m' * 50_000_000)",
    "escape_sequences_in_message": "raise ValueError('\\x1b[2J\\x1b]52;c;cHduZWQ=\\x07 done')",
    "huge_stdout": "for _ in range(1000):\n    print('p' * 100_000)\nresult = 1",
    "lone_surrogates": "print('\\ud800')\nresult = ['\\udfff', 'ok\\ud83d']",
    "lone_surrogate_in_error": "raise ValueError('bad \\udc80 text')",
    "str_that_never_returns": (
        "class Slow:\n    def __str__(self):\n        while True:\n            pass\n"
        "result = Slow()"
    ),
    "str_that_is_huge": (
        "class Big:\n    def __str__(self):\n        return 'q' * 100_000_000\n"
        "result = [Big()] * 50"
    ),
    "deeply_nested_value": "x = []\nfor _ in range(100_000):\n    x = [x]\nresult = [x]",
    "non_finite_numbers": "result = [float('nan'), float('inf'), -float('inf'), 2.5]",
    "invalid_utf8_bytes": "result = [b'\\xff\\xfe ok']",
    "huge_integer": "result = 10 ** 5000",
    "printing_while_timing_out": "while True:\n    print('x' * 1000)",
}


def _resident_bytes() -> int:
    with open("/proc/self/statm", "rb") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


@pytest.fixture(scope="module")
def pool() -> ExecutorPool:
    found = ExecutorPool(max_workers=1)
    yield found
    found.shutdown()


@pytest.mark.parametrize(
    "program", [pytest.param(code, id=name) for name, code in OUTPUT_ATTACKS.items()]
)
def test_output_attack_is_bounded_in_time_memory_and_shape(pool, sandbox, program) -> None:
    limits: Limits = pool.limits
    pool.execute("result = 1", sandbox.workspace)  # template started off the clock
    memory_before = _resident_bytes()
    started = time.monotonic()
    outcome = pool.execute(program, sandbox.workspace, timeout_seconds=TIMEOUT_SECONDS)
    wall = time.monotonic() - started
    assert wall < TIMEOUT_SECONDS + WALL_MARGIN_SECONDS
    assert _resident_bytes() - memory_before < MEMORY_MARGIN_BYTES
    text = outcome.model_dump_json()
    text.encode("utf-8")  # valid UTF-8: no lone surrogate survived
    assert len(text.encode()) <= limits.max_result_bytes
    rows = outcome.result or []
    assert len(rows) <= limits.max_rows
    assert sum(len(row) for row in rows) + len(outcome.columns) <= limits.max_cells
    cells = [cell for row in rows for cell in row if isinstance(cell, str)]
    assert all(len(cell) <= limits.max_cell_chars for cell in cells)
    assert sum(map(len, cells)) <= limits.max_result_chars
    assert len(outcome.stdout) <= limits.max_stdout_chars
    if outcome.error is not None:
        assert outcome.error.type.isidentifier() and len(outcome.error.type) <= 100
        assert len(outcome.error.message) <= limits.max_message_chars
        assert "\n" not in outcome.error.message and "\x1b" not in outcome.error.message
    sandbox.assert_nothing_done()


def test_rows_are_cut_in_the_caller_and_say_so(pool, sandbox) -> None:
    outcome = pool.execute(OUTPUT_ATTACKS["head_ignores_its_argument"], sandbox.workspace)
    assert outcome.error is None, outcome.error
    assert len(outcome.result) == pool.limits.max_rows and outcome.truncated
    assert outcome.total_rows == 3_000_000


def test_max_rows_is_chosen_per_call(pool, sandbox) -> None:
    outcome = pool.execute("result = people.id", sandbox.workspace, max_rows=2)
    assert outcome.result == [[1], [2]] and outcome.total_rows == 5 and outcome.truncated


def test_text_comes_back_valid_and_type_names_as_identifiers(pool, sandbox) -> None:
    surrogates = pool.execute(OUTPUT_ATTACKS["lone_surrogates"], sandbox.workspace)
    assert surrogates.result == [["\ufffd"], ["ok\ufffd"]]
    assert surrogates.stdout == "\ufffd\n"
    forged = pool.execute(OUTPUT_ATTACKS["newline_in_error_type"], sandbox.workspace)
    assert forged.error.type == "Evil_pandora_Forged"
    numbers = pool.execute(OUTPUT_ATTACKS["non_finite_numbers"], sandbox.workspace)
    assert numbers.result == [[None], [None], [None], [2.5]]
    escaped = pool.execute(OUTPUT_ATTACKS["escape_sequences_in_message"], sandbox.workspace)
    assert escaped.error.message.startswith("\\x1b[2J")
