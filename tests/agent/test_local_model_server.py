"""The local model's shared server, its whole lifecycle: started in the
background by the first question, shared by parallel questions and by other
Pandora homes, stopped after its keep-alive or by `pandora model stop`, its
key kept private. The server process is the real one
(`agent.local_model.child`, started as for the model) serving a stand-in for
llama.cpp (tests/agent/local_standin.py), so no model is loaded."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent.local_model.files import _record_verified, model_path
from tests.agent.conftest import music_query
from tests.conftest import REPOSITORY

QUESTION = "How many albums are there?"
ALBUMS = music_query("SELECT COUNT(*) FROM album")
GONE_SECONDS = 15.0
ASK_SECONDS = 300
"""A generous bound: on a loaded machine, starting `pandora` under nice takes a minute."""


@pytest.fixture
def standin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, examples: Path):
    """The local model configured with the stand-in backend, a private
    runtime folder and a placeholder model file; the server stopped after."""
    monkeypatch.setenv("PANDORA_MODEL", "local")
    monkeypatch.setenv("PANDORA_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("PANDORA_LOCAL_BACKEND", "tests.agent.local_standin")
    monkeypatch.setenv("PANDORA_MODEL_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("PANDORA_TEST_STANDIN_STARTS", str(tmp_path / "starts"))
    monkeypatch.setenv("PANDORA_LOCAL_THREADS", "1")
    monkeypatch.setenv("PANDORA_LOCAL_KEEP_ALIVE", "60")
    monkeypatch.setenv("PYTHONPATH", str(REPOSITORY))
    placeholder = model_path()
    placeholder.parent.mkdir(parents=True)
    placeholder.write_bytes(b"not a model: the stand-in does not read it")
    _record_verified(placeholder)
    yield tmp_path
    subprocess.run([sys.executable, "-m", "cli", "model", "stop"], capture_output=True)


def starts(folder: Path) -> list[int]:
    path = folder / "starts"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def ask_process(examples: Path, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "ask",
            QUESTION,
            "--source",
            str(examples / "music.sqlite"),
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def answered(process: subprocess.Popen[str]) -> list[list[object]]:
    try:
        stdout, stderr = process.communicate(timeout=ASK_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        raise AssertionError(f"no answer in {ASK_SECONDS} s: {stderr}") from None
    assert process.returncode == 0, stderr
    return json.loads(stdout)["answer"]


def status(pandora) -> dict:
    run = pandora("model", "status", "--json")
    assert run.exit_code == 0, run.stderr
    return run.json


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in state


def wait_until_gone(pid: int) -> bool:
    deadline = time.monotonic() + GONE_SECONDS
    while time.monotonic() < deadline:
        if gone(pid):
            return True
        time.sleep(0.2)
    return False


def test_the_first_question_starts_a_server_that_outlives_it(standin, examples, pandora):
    assert answered(ask_process(examples)) == ALBUMS
    [pid] = starts(standin)
    server = status(pandora)["server"]
    assert server["pid"] == pid and not gone(pid)
    assert server["threads"] == 1
    assert server["clients"] == 0
    assert 0 < server["stops_in_seconds"] <= 60


def test_two_questions_in_parallel_share_one_server(standin, examples):
    first = ask_process(examples, PANDORA_TEST_STANDIN_DELAY="1")
    second = ask_process(examples, PANDORA_TEST_STANDIN_DELAY="1")
    assert answered(first) == answered(second) == ALBUMS
    assert len(starts(standin)) == 1


def test_a_second_home_uses_the_same_server(standin, examples, tmp_path):
    assert answered(ask_process(examples, PANDORA_HOME=str(tmp_path / "home-a"))) == ALBUMS
    assert answered(ask_process(examples, PANDORA_HOME=str(tmp_path / "home-b"))) == ALBUMS
    assert len(starts(standin)) == 1


def test_the_server_stops_after_its_keep_alive(standin, examples, pandora):
    assert answered(ask_process(examples, PANDORA_LOCAL_KEEP_ALIVE="1")) == ALBUMS
    [pid] = starts(standin)
    assert wait_until_gone(pid)
    assert status(pandora)["server"] is None


def test_a_keep_alive_of_0_stops_it_after_each_question(standin, examples):
    for _ in range(2):
        assert answered(ask_process(examples, PANDORA_LOCAL_KEEP_ALIVE="0")) == ALBUMS
        assert wait_until_gone(starts(standin)[-1])
    assert len(starts(standin)) == 2


def test_model_stop_stops_it(standin, examples, pandora):
    assert answered(ask_process(examples)) == ALBUMS
    [pid] = starts(standin)
    run = pandora("model", "stop", "--json")
    assert run.exit_code == 0 and run.json == {"stopped": pid}
    assert wait_until_gone(pid)
    assert pandora("model", "stop", "--json").json == {"stopped": None}


def test_a_chat_model_finds_the_server_again_after_it_stopped(standin, examples, context):
    """A long-lived process (the MCP server) keeps its chat model: a request
    after the server stopped starts a new one."""
    from agent import ask, configured_chat_model
    from agent.local_model import stop_server

    model = configured_chat_model()
    sources = [str(examples / "music.sqlite")]
    assert ask(QUESTION, sources, chat_model=model, context=context).answer == ALBUMS
    stop_server()
    assert ask(QUESTION, sources, chat_model=model, context=context).answer == ALBUMS
    assert len(starts(standin)) == 2


def test_the_key_is_private_and_required(standin, examples):
    """The record holding the key is readable by its owner only, in a folder
    only its owner can enter; the key is not on the server's command line;
    a request without it is refused."""
    import urllib.error
    import urllib.request

    from agent.local_model.sharing import read_record, runtime_dir

    assert answered(ask_process(examples)) == ALBUMS
    record = read_record()
    assert record is not None
    assert stat.S_IMODE(runtime_dir().stat().st_mode) == 0o700
    assert stat.S_IMODE((runtime_dir() / "server.json").stat().st_mode) == 0o600
    command_line = Path(f"/proc/{record.pid}/cmdline").read_bytes()
    assert record.api_key.encode() not in command_line
    request = urllib.request.Request(
        record.base_url + "/chat/completions", data=b"{}", method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 401


def test_a_runtime_folder_others_can_read_is_refused(standin, tmp_path, monkeypatch):
    from agent.local_model import LocalModelError
    from agent.local_model.sharing import runtime_dir

    shared = tmp_path / "shared-runtime"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    monkeypatch.setenv("PANDORA_RUNTIME_DIR", str(shared))
    with pytest.raises(LocalModelError, match="must belong to you and be private"):
        runtime_dir()


def test_threads_fit_the_free_cores_and_a_busy_machine_is_said(monkeypatch):
    from agent.local_model import server
    from agent.local_model.server import busy_cores, fitted_threads

    cores = len(os.sched_getaffinity(0))
    assert 0.0 <= busy_cores(cores, 0.05) <= cores  # measured from /proc/stat
    monkeypatch.delenv("PANDORA_LOCAL_THREADS", raising=False)
    monkeypatch.setattr(server, "busy_cores", lambda cores: 0.0)
    assert fitted_threads() == (cores, None)
    monkeypatch.setattr(server, "busy_cores", lambda cores: cores + 2.0)
    threads, warning = fitted_threads()
    assert threads == 1 and warning is not None and "busy" in warning
    monkeypatch.setenv("PANDORA_LOCAL_THREADS", "3")
    assert fitted_threads()[0] == 3


def test_model_serve_holds_the_server_and_lets_it_go_on_ctrl_c(standin, pandora):
    import signal

    serve = subprocess.Popen(
        [sys.executable, "-m", "cli", "model", "serve", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        served = json.loads(serve.stdout.readline())
        assert status(pandora)["server"]["clients"] == 1
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=ASK_SECONDS)
    assert serve.returncode == 0, serve.stderr.read()
    server = status(pandora)["server"]
    assert server["pid"] == served["pid"] and server["clients"] == 0


def test_the_last_timings_are_read_from_llama_cpp_s_log(tmp_path):
    """The lines llama.cpp's server writes after each request (its
    print_timings format); the last request's are the ones shown."""
    from agent.local_model.server import last_timings

    log = tmp_path / "server.log"
    log.write_text(
        "slot print_timing: id  0 | task 0 |\n"
        "prompt eval time =    2000.00 ms /   100 tokens (   20.00 ms per token,    50.00 tokens"
        " per second)\n"
        "       eval time =    1000.00 ms /    10 tokens (  100.00 ms per token,    10.00 tokens"
        " per second)\n"
        "      total time =    3000.00 ms /   110 tokens\n"
        "slot print_timing: id  0 | task 1 |\n"
        "prompt eval time =     300.00 ms /    30 tokens (   10.00 ms per token,   100.00 tokens"
        " per second)\n"
        "       eval time =     500.00 ms /     4 tokens (  125.00 ms per token,     8.00 tokens"
        " per second)\n"
    )
    assert last_timings(log) == {
        "prompt_tokens": 30,
        "prompt_ms": 300.0,
        "prompt_tokens_per_second": 100.0,
        "reply_tokens": 4,
        "reply_ms": 500.0,
        "reply_tokens_per_second": 8.0,
    }
    assert last_timings(tmp_path / "missing.log") is None
