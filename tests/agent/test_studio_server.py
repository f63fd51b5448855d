"""LangGraph Studio's local server (`langgraph dev`) runs the graph
`langgraph.json` names: started on loopback from the repository's top folder,
it completes a run over its HTTP API (`POST /runs/wait`), the LLM being the
fake OpenAI-compatible server, and the answer is checked with sqlite3.

The server comes from a virtualenv of its own (docs/studio.md): set
PANDORA_TEST_LANGGRAPH to that virtualenv's `langgraph` executable, as
`.ci/run` does; without it the test is skipped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import httpx
import pytest

from tests.agent.conftest import MUSIC, fenced, music_query
from tests.conftest import REPOSITORY
from tests.fake_openai import Step, fake_openai_server

pytestmark = pytest.mark.slow

LANGGRAPH_VARIABLE = "PANDORA_TEST_LANGGRAPH"
SETUP = (
    f"set {LANGGRAPH_VARIABLE} to the `langgraph` executable of a Studio virtualenv "
    "(docs/studio.md; .ci/run builds one in .venv-studio)"
)
START_TIMEOUT_SECONDS = 120.0
RUN_TIMEOUT_SECONDS = 120.0
QUESTION = "How many albums are there?"
COUNT_SQL = "SELECT COUNT(*) FROM album"


@pytest.fixture
def langgraph() -> Path:
    """The `langgraph` executable PANDORA_TEST_LANGGRAPH names (skips without it)."""
    value = os.environ.get(LANGGRAPH_VARIABLE, "").strip()
    if not value:
        pytest.skip(f"{LANGGRAPH_VARIABLE} is not set: {SETUP}")
    executable = Path(value)
    assert os.access(executable, os.X_OK), f"{LANGGRAPH_VARIABLE}={value} is not an executable"
    return executable


def free_port() -> int:
    """A TCP port nobody listens on at 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def log_text(log: IO[str]) -> str:
    """Everything the server has written so far."""
    log.flush()
    log.seek(0)
    return log.read()


@contextlib.contextmanager
def studio_server(langgraph: Path, environment: dict[str, str]) -> Iterator[str]:
    """Run `langgraph dev` on a free loopback port from the repository's top
    folder until the block ends; yields its base URL once it answers `/ok`.
    The server is stopped with its whole process group."""
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    # Without --no-reload the server restarts whenever a file of the checkout
    # changes, which may happen in the middle of the run.
    command = [str(langgraph), "dev", "--no-browser", "--no-reload"]
    command += ["--host", "127.0.0.1", "--port", str(port)]
    # A file, not a pipe: a chatty server must never block on a full pipe.
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen(
            command,
            cwd=REPOSITORY,
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            wait_until_ready(process, base_url)
            yield base_url
        except BaseException as error:
            error.add_note(f"langgraph dev's log:\n{log_text(log)}")
            raise
        finally:
            stop_process_group(process)


def wait_until_ready(process: subprocess.Popen[str], base_url: str) -> None:
    """Return once the server answers `GET /ok`; fail if it exits or does not
    answer in time."""
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    with httpx.Client(base_url=base_url, trust_env=False, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(f"langgraph dev exited ({process.returncode})")
            try:
                if client.get("/ok").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.5)
    raise AssertionError(f"langgraph dev did not answer {base_url}/ok in {START_TIMEOUT_SECONDS} s")


def stop_process_group(process: subprocess.Popen[str]) -> None:
    """Stop the server and every process it started: SIGTERM to the group,
    then SIGKILL to whatever is left of it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=20)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def server_environment(llm_base_url: str, home: Path) -> dict[str, str]:
    """The server's environment: this one, the LLM pointed at the fake server,
    the test's own Pandora home, and nothing sent to LangSmith."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("OPENAI_", "PANDORA_MODEL", "PANDORA_CONFIG", "LANGSMITH_"))
    }
    return {
        **environment,
        "OPENAI_BASE_URL": llm_base_url,
        "OPENAI_API_KEY": "test-key",
        "PANDORA_MODEL": "fake-model",
        "PANDORA_LOCAL_MODEL": "off",
        "PANDORA_HOME": str(home),
        "PANDORA_EMBEDDING": "hashed",
        "LANGSMITH_TRACING": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LOG_COLOR": "false",
    }


def run_and_wait(base_url: str, payload: dict[str, Any]) -> Any:
    """`POST /runs/wait`: a stateless run's final state values."""
    with httpx.Client(base_url=base_url, trust_env=False, timeout=RUN_TIMEOUT_SECONDS) as client:
        response = client.post("/runs/wait", json=payload)
    assert response.status_code == 200, response.text
    return response.json()


def test_langgraph_dev_completes_a_run_over_http(langgraph: Path, memory_home: Path) -> None:
    script = [Step(fenced(COUNT_SQL, "sql"))]
    with fake_openai_server(script) as llm:
        environment = server_environment(llm.base_url, memory_home)
        with studio_server(langgraph, environment) as base_url:
            values = run_and_wait(
                base_url,
                {
                    "assistant_id": "pandora",
                    "input": {"question": QUESTION, "sources": [str(MUSIC)]},
                    "context": {
                        "demonstrations": 0,
                        "representation": "sql",
                        "candidates": 1,
                        "max_attempts": 1,
                        "reply_format": "fenced",
                        "readings": 0,
                    },
                },
            )
            assert "__error__" not in values, values
            answer = values["answer"]
            assert answer["error"] is None, answer
            assert answer["answer"] == music_query(COUNT_SQL)
            assert answer["representation"] == "sql"
            assert len(llm.requests) == 1
            assert QUESTION in llm.prompts()[0]
