"""The kernel layers on their own: a process locked down as a worker is, then
trying forbidden operations with plain Python (every Python-level layer
bypassed), must be refused by the kernel."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from plugins.executor.landlock import landlock_abi

PROBE = Path(__file__).with_name("lockdown_probe.py")


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory, listener) -> dict:
    directory = tmp_path_factory.mktemp("kernel")
    readable = directory / "data.csv"
    readable.write_text("a,b\n1,2\n")
    caller = tmp_path_factory.mktemp("caller")  # the calling script's directory
    (caller / ".env").write_text("OPENAI_API_KEY=canary\n")
    script = caller / PROBE.name
    shutil.copy(PROBE, script)
    completed = subprocess.run(
        [sys.executable, str(script), str(directory), str(readable), str(listener.port)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=caller,
    )
    found = json.loads(completed.stdout)
    found["directory"] = directory
    return found


def test_every_layer_is_active_on_this_machine(probe: dict) -> None:
    report = probe["report"]
    assert report["problems"] == []
    assert report["seccomp"] is True
    assert report["landlock_abi"] == landlock_abi() > 0
    assert report["rlimits"]["RLIMIT_FSIZE"] == 0


@pytest.mark.parametrize(
    "operation",
    [
        "fork",
        "execve",
        "socket",
        "open_write",
        "open_create_readonly_flags",
        "unlink",
        "read_outside",
        "read_dotenv_beside_script",
        "list_working_directory",
        "raise_rlimit",
        "memory",
        "sysv_shared_memory",
        "sysv_message_queue",
        "sysv_semaphore",
        "posix_message_queue",
        "renice_caller",
        "renice_self",
        "schedule_caller",
        "scheduler_policy",
        "scheduler_parameters",
        "io_priority_caller",
    ],
)
def test_the_kernel_refuses(probe: dict, operation: str) -> None:
    assert probe["outcomes"][operation] in {
        "PermissionError",
        "OSError",
        "MemoryError",
        "ValueError",
    }


def test_nothing_reached_the_outside(probe: dict, listener) -> None:
    assert sorted(p.name for p in probe["directory"].iterdir()) == ["data.csv"]
    assert "canary" not in json.dumps(probe["outcomes"])
    assert listener.connections == []


def test_what_data_programs_need_still_works(probe: dict) -> None:
    assert probe["outcomes"]["read_source"] == "allowed"
    assert probe["outcomes"]["thread"] == "allowed"
