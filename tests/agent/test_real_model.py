"""The real local model (Qwen2.5-Coder-1.5B on llama.cpp, the `local` extra)
answering questions over the bundled examples. Answers are checked by value
against answers computed independently here with sqlite3, csv and rdflib.

One server serves the whole module (llama.cpp reuses the prompt prefix
between calls) with the product's thread count (PANDORA_LOCAL_THREADS, default
2), on one pytest-xdist worker while the other slow modules run on the other.
Skipped, saying why, when the model packages are not installed.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import rdflib

from agent import Answer, ask
from agent.chat import complete
from agent.llm import LLMSettings, openai_compatible_model
from agent.local_model import LocalServer, local_model_installed, start_server
from agent.local_model.server import stderr_progress
from agent.parsing import REASONING_MAX_CHARACTERS, REPLY_SCHEMA
from agent.prompts import REPLY_FORMAT

pytestmark = [pytest.mark.slow, pytest.mark.local_model, pytest.mark.timeout(900)]
"""The 300 s default of the suite is too short when another worker shares the cores."""

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MUSIC = EXAMPLES / "music.sqlite"
CITIES = EXAMPLES / "cities.csv"
FILMS = EXAMPLES / "films.ttl"


@pytest.fixture(scope="module")
def local_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    """One local model server for the module; the model is joined once into
    PANDORA_MODEL_DIR (a temporary folder unless set)."""
    if not local_model_installed():
        pytest.skip("the local model is not installed: pip install -e '.[local]'")
    patch = pytest.MonkeyPatch()
    patch.setenv("PANDORA_HOME", str(tmp_path_factory.mktemp("server-home")))
    if not os.environ.get("PANDORA_MODEL_DIR"):
        patch.setenv("PANDORA_MODEL_DIR", str(tmp_path_factory.mktemp("models")))
    try:
        server = start_server(stderr_progress)
    finally:
        patch.undo()
    yield server
    server.stop()


@pytest.fixture
def local_ask(local_server: LocalServer):
    """`ask` with the local model and the settings a user of it gets
    (agent.model_defaults.LOCAL_MODEL_DEFAULTS)."""
    settings = LLMSettings.from_env()
    slow = LLMSettings(**{**settings.__dict__, "timeout_seconds": 900.0, "stream": False})
    model = openai_compatible_model(slow, "local", local_server.base_url, local_server.api_key)

    def run(question: str, sources: list[Path], **options) -> Answer:
        answer = ask(
            question,
            [str(source) for source in sources],
            chat_model=model,
            **options,
        )
        print(f"{question} -> {answer.answer} ({answer.llm_calls} calls)\n{answer.code}")
        return answer

    return run


def sql(query: str) -> list[tuple]:
    with sqlite3.connect(f"file:{MUSIC}?mode=ro", uri=True) as connection:
        return connection.execute(query).fetchall()


def cities() -> list[dict[str, str]]:
    with open(CITIES, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def population(row: dict[str, str]) -> int:
    """The population as a number; missing ("n/a", blank) counts as none."""
    text = row["Population (2020)"].replace(",", "")
    return int(text) if text.isdigit() else -1


def films_directed_by(name: str) -> set[str]:
    graph = rdflib.Graph().parse(FILMS)
    rows = graph.query(
        """
        PREFIX ex: <http://example.org/films/>
        PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
        SELECT ?title WHERE {
            ?film ex:directedBy ?director . ?director rdfs:label ?name .
            ?film rdfs:label ?title . FILTER(str(?name) = ?wanted && lang(?title) IN ("", "en"))
        }""",
        initBindings={"wanted": rdflib.Literal(name)},
    )
    return {str(row[0]) for row in rows}


def assert_value(answer: Answer, expected: float) -> None:
    """One row, and one of its cells is the expected number."""
    assert answer.error is None, answer.error
    assert len(answer.answer) == 1, answer.answer
    numbers = [cell for cell in answer.answer[0] if isinstance(cell, int | float)]
    assert any(math.isclose(n, expected, rel_tol=1e-3) for n in numbers), answer.answer


def assert_values(answer: Answer, expected: set[str]) -> None:
    """Some column of the answer holds exactly the expected values."""
    assert answer.error is None, answer.error
    columns = zip(*answer.answer, strict=False) if answer.answer else []
    found = [{str(cell).strip().casefold() for cell in column} for column in columns]
    assert {value.casefold() for value in expected} in found, answer.answer


def test_table_the_most_populous_city(local_ask):
    expected = max(cities(), key=population)["City"]
    assert_values(local_ask("Which city has the largest population?", [CITIES]), {expected})


def test_table_a_count_with_a_filter(local_ask):
    expected = sum(1 for row in cities() if row["Country"] == "China")
    assert_value(local_ask("How many cities are in China?", [CITIES]), expected)


def test_database_pandas_a_count(local_ask):
    (expected,) = sql("SELECT COUNT(*) FROM artist")[0]
    assert_value(local_ask("How many artists are there?", [MUSIC]), expected)


def test_database_pandas_the_earliest_formed_artist(local_ask):
    expected = {
        row[0]
        for row in sql(
            "SELECT name FROM artist WHERE formed_year = (SELECT MIN(formed_year) FROM artist)"
        )
    }
    assert_values(local_ask("Which artist was formed earliest?", [MUSIC]), expected)


def test_database_sql_an_average(local_ask):
    (expected,) = sql("SELECT AVG(price) FROM album")[0]
    answer = local_ask("What is the average price of the albums?", [MUSIC], representation="sql")
    assert answer.representation == "sql"
    assert_value(answer, expected)


def test_database_sql_a_filtered_count(local_ask):
    (expected,) = sql("SELECT COUNT(*) FROM customer WHERE country = 'Spain'")[0]
    answer = local_ask("How many customers come from Spain?", [MUSIC], representation="sql")
    assert_value(answer, expected)


def test_kg_pandas_films_of_a_director(local_ask):
    expected = films_directed_by("Federico Fellini")
    assert expected
    answer = local_ask("Which films did Federico Fellini direct?", [FILMS], representation="pandas")
    assert_values(answer, expected)


def test_kg_sql_over_the_boxes_by_default(local_ask):
    expected = films_directed_by("Alfred Hitchcock")
    assert expected
    answer = local_ask("Which films did Alfred Hitchcock direct?", [FILMS])
    assert answer.representation == "sql"
    assert_values(answer, expected)


def test_kg_networkx_a_count(local_ask):
    expected = len(films_directed_by("Alfred Hitchcock"))
    answer = local_ask(
        "How many films did Alfred Hitchcock direct?", [FILMS], representation="networkx"
    )
    assert answer.representation == "networkx" and not answer.soft
    assert_value(answer, expected)


def test_two_sources_customers_in_a_country_with_a_listed_city(local_ask):
    countries = {row["Country"] for row in cities()}
    expected = {
        name for name, country in sql("SELECT name, country FROM customer") if country in countries
    }
    answer = local_ask(
        "Which customers live in a country that has a city in the cities table?",
        [MUSIC, CITIES],
    )
    assert_values(answer, expected)


def test_model_serve_keeps_one_warm_that_ask_reuses(tmp_path, memory_home):
    """`pandora model serve` in one process; `pandora model status` and
    `pandora ask` in others find it; `pandora model stop` stops the model."""
    import json
    import signal
    import subprocess
    import sys

    if not local_model_installed():
        pytest.skip("the local model is not installed: pip install -e '.[local]'")
    environment = {
        **os.environ,
        "PANDORA_MODEL_DIR": os.environ.get("PANDORA_MODEL_DIR") or str(tmp_path / "models"),
    }
    # The suite's 20 s fake-LLM timeout goes too: `pandora ask` gets the local
    # model's own (1800 s), which a CPU shared with other work needs.
    for variable in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "PANDORA_MODEL", "PANDORA_LLM_TIMEOUT"):
        environment.pop(variable, None)
    serve = subprocess.Popen(
        [sys.executable, "-m", "cli", "model", "serve", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
    )
    try:
        served = json.loads(serve.stdout.readline())
        status = subprocess.run(
            [sys.executable, "-m", "cli", "model", "status", "--json"],
            capture_output=True,
            text=True,
            env=environment,
            check=True,
        )
        assert json.loads(status.stdout)["server"]["base_url"] == served["base_url"]
        asked = subprocess.run(
            [
                sys.executable,
                "-m",
                "cli",
                "ask",
                "How many artists are there?",
                "--source",
                str(MUSIC),
                "--json",
            ],
            capture_output=True,
            text=True,
            env=environment,
            timeout=1800,
        )
        assert "starting the local model" not in asked.stderr  # the warm one was used
        (expected,) = sql("SELECT COUNT(*) FROM artist")[0]
        payload = json.loads(asked.stdout)
        assert payload["answer"] == [[expected]], (payload.get("error"), payload.get("code"))
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=60)
        # the shared server outlives serve for its keep-alive: stop it now
        subprocess.run([sys.executable, "-m", "cli", "model", "stop"], env=environment, check=True)
    stopped = subprocess.run(
        [sys.executable, "-m", "cli", "model", "status", "--json"],
        capture_output=True,
        text=True,
        env=environment,
        check=True,
    )
    assert json.loads(stopped.stdout)["server"] is None


def test_the_reply_schema_ends_a_long_reasoning_and_the_code_follows(local_server):
    """Asked for 200 words of reasoning, the model is stopped at the schema's
    bound by the grammar llama.cpp builds from it, and still writes the code
    (without the bound, such runaway reasoning filled the token limit and the
    reply held no code)."""
    settings = LLMSettings.from_env()
    slow = LLMSettings(**{**settings.__dict__, "timeout_seconds": 900.0, "stream": False})
    model = openai_compatible_model(slow, "local", local_server.base_url, local_server.api_key)
    messages = [
        {"role": "system", "content": f"You write pandas code. {REPLY_FORMAT}"},
        {
            "role": "user",
            "content": "In the reasoning, explain step by step, in at least 200 words, how "
            "pandas counts the rows of a DataFrame. Then write the code that counts the "
            "rows of the DataFrame `album` into `result`.",
        },
    ]
    reply = json.loads(complete(model, messages, REPLY_SCHEMA).text)
    assert len(reply["reasoning"]) == REASONING_MAX_CHARACTERS
    assert any("result" in line for line in reply["code"]), reply["code"]
