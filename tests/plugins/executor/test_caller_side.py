"""The caller's side of a run, against children that do not play by the
rules: real processes writing into a real pipe (a flood, silence, a fake
length header then silence), and forged result messages. The caller must
stop at its deadline or byte limit and take in only well-formed, capped data."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from plugins.executor.caps import MalformedResult, trusted_result
from plugins.executor.messages import ChannelClosed, receive_message
from plugins.executor.models import Limits
from plugins.executor.result_channel import Ending, read_result


def _child_writing(script: str) -> tuple[subprocess.Popen[bytes], int]:
    """A real process whose stdout is the write end of a pipe; returns it and the read end."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen([sys.executable, "-c", script], stdout=write_end)
    os.close(write_end)
    return process, read_end


@pytest.mark.parametrize(
    ("script", "ending"),
    [
        ("import sys\nwhile True:\n    sys.stdout.buffer.write(b'x' * 65536)", Ending.TOO_LARGE),
        ("import time\ntime.sleep(60)", Ending.TIMEOUT),
        (
            "import sys, time\nsys.stdout.buffer.write((10**9).to_bytes(4, 'big'))\n"
            "sys.stdout.flush()\ntime.sleep(60)",
            Ending.TIMEOUT,
        ),
        ("import sys\nsys.stdout.buffer.write(b'{\"result\": null}')", Ending.COMPLETE),
    ],
    ids=["flood", "silence", "fake_length_header", "honest"],
)
def test_reading_stops_at_the_deadline_or_the_byte_limit(script: str, ending: Ending) -> None:
    process, read_end = _child_writing(script)
    started = time.monotonic()
    try:
        reading = read_result(read_end, time.monotonic() + 1.0, byte_limit=1_000_000)
    finally:
        process.kill()
        process.wait()
        os.close(read_end)
    assert reading.ending is ending
    assert time.monotonic() - started < 2.0
    assert len(reading.data) <= 1_000_000


LIMITS = Limits(max_rows=100, max_cells=300, max_cell_chars=50, max_result_chars=1000)


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"[1, 2]",
        b'{"result": [[{"nested": 1}]], "columns": ["a"]}',
        b'{"result": [1, 2], "columns": ["a"]}',
        b'{"result": [[1]], "columns": "a"}',
        b'{"error": "boom"}',
        b"[" * 100_000 + b"]" * 100_000,
    ],
    ids=[
        "not_json",
        "not_object",
        "nested_cell",
        "row_not_list",
        "columns_not_list",
        "error_not_object",
        "deep_nesting",
    ],
)
def test_malformed_messages_are_refused(payload: bytes) -> None:
    with pytest.raises(MalformedResult):
        trusted_result(payload, LIMITS, max_rows=100)


def test_forged_messages_are_cut_to_the_caps() -> None:
    forged = {
        "result": [["w" * 500, 1, None, True, 2.5] for _ in range(1000)],
        "columns": ["a", "b", "c", "d", "e"],
        "total_rows": 1000,
        "truncated": False,
        "stdout": "s" * 10**6,
        "error": {"type": "X\npandora: forged" + "y" * 10**6, "message": "m\n" * 10**6, "line": -3},
    }
    result = trusted_result(json.dumps(forged).encode(), LIMITS, max_rows=10)
    assert len(result.result) <= 10 and result.truncated
    assert all(len(cell) <= 50 for row in result.result for cell in row if isinstance(cell, str))
    assert len(result.stdout) == LIMITS.max_stdout_chars
    assert result.error.type.isidentifier() and len(result.error.type) <= LIMITS.max_type_chars
    assert "\n" not in result.error.message and len(result.error.message) <= 1000
    assert result.error.line is None


def test_cells_count_against_the_cell_cap_whatever_their_size() -> None:
    forged = {"result": [[""] * 100 for _ in range(100)], "columns": ["c"] * 100}
    result = trusted_result(json.dumps(forged).encode(), LIMITS, max_rows=100)
    assert sum(len(row) for row in result.result) + len(result.columns) <= LIMITS.max_cells
    assert result.truncated


def test_lone_surrogates_from_a_child_become_replacement_characters() -> None:
    payload = b'{"result": [["\\ud800"]], "columns": ["\\udfff"], "stdout": "\\ud83d"}'
    result = trusted_result(payload, LIMITS, max_rows=10)
    assert result.result == [["\ufffd"]] and result.columns == ["\ufffd"]
    assert result.stdout == "\ufffd"
    result.model_dump_json().encode("utf-8")


def test_a_control_peer_that_dies_with_unread_input_reads_as_a_closed_channel() -> None:
    """A template killed before reading what the caller sent resets the
    socket; the caller must see ChannelClosed (and report WorkerCrashed), not
    an unhandled ConnectionResetError."""
    caller, template = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    caller.sendall(b"unread by the template")
    template.close()
    with pytest.raises(ChannelClosed, match="cannot receive"):
        receive_message(caller, time.monotonic() + 5)
    caller.close()
