"""What stopping a fenced reply at its closing fence saves on the local model.

The agent asks for one sentence, then the code in a fenced block, and
stops generating at `agent.prompts.FENCED_REPLY_END` (the closing fence and
a blank line), where the local model goes on to explain its code. This
script asks the local model each of a seeded sample of Spider dev
questions twice, greedily, with the agent's own SQL prompt (instruction,
schema with example rows; no demonstrations): once without the stop (the
baseline) and once with it. Printed: generated tokens and generation
seconds (llama.cpp's own timings) of each, their ratio, and how many of
the programs the agent reads from the two replies are the same (greedy
decoding of one prompt: the stop can only cut what follows the code).

Run: python benchmarks/fenced_stop.py SPIDER_DIR [--questions N] [--seed S]
(the model file must be joined: `pandora model serve` once, or
PANDORA_MODEL_DIR; nothing else may run; the script starts its own server)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from parallel_samples import start  # noqa: E402

from agent.llm import MAX_REPLY_TOKENS  # noqa: E402
from agent.model_defaults import LOCAL_MODEL_DEFAULTS  # noqa: E402
from agent.parsing import UnparsableReply, parse_reply  # noqa: E402
from agent.prompts import FENCED_REPLY_END, code_instruction, code_messages  # noqa: E402
from plugins import Workspace, get_registry, load_source  # noqa: E402

EXAMPLE_ROWS = LOCAL_MODEL_DEFAULTS.example_values


def sample(spider: Path, questions: int, seed: int) -> list[dict[str, str]]:
    """A seeded sample of Spider dev questions whose database is present."""
    dev = json.loads((spider / "dev.json").read_text(encoding="utf-8"))
    present = [item for item in dev if _database(spider, item["db_id"]).is_file()]
    return random.Random(seed).sample(present, min(questions, len(present)))


def _database(spider: Path, name: str) -> Path:
    return spider / "database" / name / f"{name}.sqlite"


def messages_for(spider: Path, item: dict[str, str]) -> list[dict[str, str]]:
    """The agent's fenced SQL prompt for one question."""
    workspace = Workspace.of([load_source(str(_database(spider, item["db_id"])))])
    representation = get_registry().representation("sql")
    return code_messages(
        representation="sql",
        instruction=code_instruction("sql", workspace, "fenced"),
        schema_text=representation.render_schema(workspace, None, EXAMPLE_ROWS),
        demonstrations=[],
        question=item["question"],
    )


def ask(url: str, messages: list[dict[str, str]], stop: list[str]) -> dict[str, Any]:
    """One greedy chat completion, with `stop` strings when any."""
    body: dict[str, Any] = {
        "messages": messages,
        "temperature": 0,
        "max_tokens": MAX_REPLY_TOKENS,
        "cache_prompt": True,
    }
    if stop:
        body["stop"] = stop
    return httpx.post(url, json=body, timeout=1800).json()


def program(reply: dict[str, Any]) -> str | None:
    """The SQL the agent reads from a reply, None when it reads none."""
    try:
        return parse_reply(reply["choices"][0]["message"]["content"], "sql").code
    except UnparsableReply:
        return None


def main() -> None:
    """Ask every sampled question without and with the stop; print the totals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spider", type=Path)
    parser.add_argument("--questions", type=int, default=12)
    parser.add_argument("--seed", type=int, default=3)
    arguments = parser.parse_args()
    server, url = start(1)
    totals = {"without": [0, 0.0], "with": [0, 0.0]}
    same = 0
    items = sample(arguments.spider, arguments.questions, arguments.seed)
    try:
        for item in items:
            messages = messages_for(arguments.spider, item)
            replies = {
                "without": ask(url, messages, []),
                "with": ask(url, messages, [FENCED_REPLY_END]),
            }
            for name, reply in replies.items():
                totals[name][0] += reply["timings"]["predicted_n"]
                totals[name][1] += reply["timings"]["predicted_ms"] / 1000
            same += program(replies["without"]) == program(replies["with"])
            print(
                f"{item['db_id']:28} generated {replies['without']['timings']['predicted_n']:4} "
                f"-> {replies['with']['timings']['predicted_n']:4} tokens",
                file=sys.stderr,
            )
    finally:
        del server
    (tokens_without, seconds_without), (tokens_with, seconds_with) = totals.values()
    print(f"questions: {len(items)} (Spider dev, seed {arguments.seed})")
    print(f"without the stop (baseline): {tokens_without} tokens, {seconds_without:.1f} s")
    print(f"with the stop:               {tokens_with} tokens, {seconds_with:.1f} s")
    print(
        f"with / without: {tokens_with / tokens_without:.2f}x the tokens, "
        f"{seconds_with / seconds_without:.2f}x the generation time"
    )
    print(f"same program read from both replies: {same} of {len(items)}")


if __name__ == "__main__":
    main()
