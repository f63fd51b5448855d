"""The agent's own cost, and the local model's speed.

(1) With a fake OpenAI-compatible server on 127.0.0.1 answering instantly
    (tests/fake_openai.py), the time per question spent outside the
    LLM (plan, retrieval, prompt building, execution, reflection) for a
    table, a database and a KG question, next to the bare executor running
    the same program (the baseline, measured in the same run). Target:
    under 100 ms per warm question. Then the prompt of each representation
    in tokens, next to the prompt common tools send: the same question with
    5 sample rows of every table.
(2) With --local, the local model: seconds and LLM calls per question on
    the bundled examples, the first time (fresh prompt) and again (warm:
    llama.cpp reuses the prompt prefix).

    python benchmarks/agent.py [--runs 10] [--local] [--threads 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))

from agent import AgentContext, ask  # noqa: E402
from agent.nodes import generate  # noqa: E402
from agent.prompts import code_instruction, code_messages  # noqa: E402
from plugins import Focus, Workspace, get_registry, load_source  # noqa: E402
from plugins.executor import execute  # noqa: E402
from tests.fake_openai import Step, fake_openai_server  # noqa: E402

EXAMPLES = REPOSITORY / "examples"
QUESTIONS = [
    # (kind, question, source, representation, a correct program)
    (
        "table",
        "How many cities are in China?",
        "cities.csv",
        "pandas",
        "result = len(cities[cities['Country'] == 'China'])",
    ),
    (
        "database",
        "How many albums does each genre have?",
        "music.sqlite",
        "pandas",
        "result = album.groupby('genre').size()",
    ),
    (
        "database",
        "How many albums does each genre have?",
        "music.sqlite",
        "sql",
        "SELECT genre, COUNT(*) FROM album GROUP BY genre",
    ),
    (
        "kg",
        "Which films did Federico Fellini direct?",
        "films.ttl",
        "pandas",
        "result = film[film['directed_by'] == 'Federico Fellini']['film'].unique()",
    ),
    (
        "kg",
        "Which films did Federico Fellini direct?",
        "films.ttl",
        "networkx",
        "def KGQA(question, graph):\n"
        "    return sorted(h for h, t, d in graph.in_edges('Federico Fellini', data=True)\n"
        "                  if d['relation'] == 'directed_by')",
    ),
]
LOCAL_QUESTIONS = [
    ("table", "Which city has the largest population?", ["cities.csv"], None),
    ("database", "How many artists are there?", ["music.sqlite"], None),
    ("database (sql)", "How many customers come from Spain?", ["music.sqlite"], "sql"),
    ("kg", "Which films did Federico Fellini direct?", ["films.ttl"], None),
    (
        "two sources",
        "Which customers live in a country that has a city in the cities table?",
        ["music.sqlite", "cities.csv"],
        None,
    ),
]


def timed_llm() -> list[float]:
    """Patch the generate node's LLM call to record its duration."""
    durations: list[float] = []
    original = generate.complete

    def complete(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            durations.append(time.perf_counter() - start)

    generate.complete = complete
    return durations


def outside_llm(runs: int) -> None:
    """Part (1): agent time outside the LLM vs. the bare executor."""
    llm_seconds = timed_llm()
    print("(1) time per question outside the LLM (fake server answering instantly)")
    print(
        f"{'question':<10} {'repr':<9} {'first ms':>9} {'warm ms':>8} {'executor ms':>12} "
        f"{'ratio':>6}"
    )
    for kind, question, source, representation, code in QUESTIONS:
        workspace = Workspace.of([load_source(str(EXAMPLES / source))])
        context = AgentContext(demonstrations=10)
        replies = [Step(f"```{'sql' if representation == 'sql' else 'python'}\n{code}\n```")]
        with fake_openai_server(replies * (runs + 1)) as server:
            os.environ.update(
                OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="x", PANDORA_MODEL="fake-model"
            )
            totals = []
            for _ in range(runs + 1):
                llm_seconds.clear()
                start = time.perf_counter()
                answer = ask(question, workspace, representation=representation, context=context)
                totals.append(time.perf_counter() - start - sum(llm_seconds))
                assert answer.error is None and answer.answer, answer
        focus = Focus(question=question) if kind == "kg" else None
        bare = []
        for _ in range(runs):
            start = time.perf_counter()
            execute(code, workspace, representation=representation, focus=focus)
            bare.append(time.perf_counter() - start)
        warm, executor = statistics.median(totals[1:]) * 1000, statistics.median(bare) * 1000
        print(
            f"{kind:<10} {representation:<9} {totals[0] * 1000:9.1f} {warm:8.1f} "
            f"{executor:12.1f} {warm / executor:6.2f}"
        )


def prompt_sizes(count_tokens: Callable[[str], int], unit: str) -> None:
    """Part (1b): prompt size per representation vs. 5 sample rows of every table."""
    print(f"\nprompt size in {unit}: ours (K=0 and K=3 demonstrations) vs. 5 sample rows")
    print(
        f"{'question':<10} {'repr':<9} {'ours K=0':>9} {'ours K=3':>9} {'5 rows':>7} "
        f"{'ratio K=0':>9}"
    )
    from agent.state import ShownDemonstration
    from memory import retrieve_demonstrations

    registry = get_registry()
    for kind, question, source, representation, _ in QUESTIONS:
        workspace = Workspace.of([load_source(str(EXAMPLES / source))])
        focus = Focus(question=question) if kind == "kg" else None
        schema = registry.representation(representation).render_schema(workspace, focus)
        demos = [
            ShownDemonstration.of(d)
            for d in retrieve_demonstrations(question, 3, representation=representation)
        ]
        sizes = []
        for shown in ([], demos):
            messages = code_messages(
                representation=representation,
                instruction=code_instruction(representation, workspace),
                schema_text=schema,
                demonstrations=shown,
                question=question,
            )
            sizes.append(count_tokens("\n".join(m["content"] for m in messages)))
        sampled = registry.representation("pandas").render_schema(workspace, focus, values=5)
        baseline = code_messages(
            representation="pandas",
            instruction=code_instruction("pandas", workspace),
            schema_text=sampled,
            demonstrations=[],
            question=question,
        )
        rows = count_tokens("\n".join(m["content"] for m in baseline))
        print(
            f"{kind:<10} {representation:<9} {sizes[0]:9d} {sizes[1]:9d} {rows:7d} "
            f"{sizes[0] / rows:9.2f}"
        )


def local_model(threads: int) -> Callable[[str], int]:
    """Part (2): the local model, first and warm, per question."""
    import json
    import urllib.request

    from agent.llm import LLMSettings, openai_compatible_model
    from agent.local_model import start_server
    from agent.local_model.server import stderr_progress

    os.environ["PANDORA_LOCAL_THREADS"] = str(threads)
    server = start_server(stderr_progress)
    settings = LLMSettings(None, None, None, 1800.0, 0, False, True)
    model = openai_compatible_model(settings, "local", server.base_url, server.api_key)
    print(
        f"\n(2) local model, {threads} thread(s), K=3; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(f"{'question':<15} {'first s':>8} {'calls':>5} {'warm s':>7} {'calls':>5} correct?")
    for kind, question, sources, representation in LOCAL_QUESTIONS:
        results = []
        for _ in range(2):
            start = time.perf_counter()
            answer = ask(
                question,
                [str(EXAMPLES / s) for s in sources],
                chat_model=model,
                representation=representation,
                context=AgentContext(demonstrations=3),
            )
            results.append((time.perf_counter() - start, answer))
        (first, a), (warm, b) = results
        print(
            f"{kind:<15} {first:8.1f} {a.llm_calls:5d} {warm:7.1f} {b.llm_calls:5d} "
            f"{json.dumps(a.answer)[:60]}"
        )

    def count_tokens(text: str) -> int:
        request = urllib.request.Request(
            f"http://127.0.0.1:{server.port}/tokenize",
            data=json.dumps({"content": text}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as reply:
            return len(json.load(reply)["tokens"])

    return count_tokens


def main() -> None:
    """Run part (1), and part (2) with --local."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--local", action="store_true", help="also measure the local model")
    parser.add_argument("--threads", type=int, default=1)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ.setdefault("PANDORA_HOME", home)
        os.environ.setdefault("PANDORA_EMBEDDING", "hashed")
        outside_llm(arguments.runs)
        if arguments.local:
            prompt_sizes(local_model(arguments.threads), "tokens (Qwen2.5 tokenizer)")
        else:
            prompt_sizes(lambda text: len(text) // 4, "estimated tokens (characters / 4)")


if __name__ == "__main__":
    main()
