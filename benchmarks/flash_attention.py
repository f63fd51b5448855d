"""Whether the local model answers faster with flash attention on than with
llama.cpp's automatic choice, which the product keeps (measured: no faster).

Two servers of the local model are started in turn (never both at once):
llama.cpp's automatic choice (the baseline) and flash attention on. Each is
asked the agent's own SQL prompt (instruction, schema with example rows;
no demonstrations) for a seeded sample of Spider dev questions, greedily
and then once sampled at temperature 0.7 with a fixed seed, so the second
request finds its prompt cached as the agent's candidates do. Printed:
prompt and generated tokens per second of each (llama.cpp's own timings),
their ratios, and how many greedy replies are the same text.

Run: python benchmarks/flash_attention.py SPIDER_DIR [--questions N] [--seed S]
(the model file must be joined: `pandora model serve` once, or
PANDORA_MODEL_DIR; nothing else may run; the script starts its own servers)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import httpx

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from fenced_stop import messages_for, sample  # noqa: E402
from parallel_samples import start  # noqa: E402

from agent.llm import MAX_REPLY_TOKENS  # noqa: E402
from agent.prompts import FENCED_REPLY_END  # noqa: E402

SETTINGS = {"automatic (baseline)": False, "flash attention on": True}


def reply(url: str, messages: list[dict[str, str]], temperature: float) -> dict[str, Any]:
    """One chat completion at `temperature` with a fixed seed."""
    body = {
        "messages": messages,
        "temperature": temperature,
        "seed": 1,
        "max_tokens": MAX_REPLY_TOKENS,
        "cache_prompt": True,
        "stop": [FENCED_REPLY_END],
    }
    return httpx.post(url, json=body, timeout=1800).json()


def measure(flash_attention: bool, prompts: list[list[dict[str, str]]]) -> dict[str, Any]:
    """Prompt and generation totals of one server over every prompt, and its greedy texts."""
    server, url = start(1, flash_attention=flash_attention)
    totals: dict[str, Any] = {"prompt": [0, 0.0], "generated": [0, 0.0], "greedy": []}
    try:
        for messages in prompts:
            for temperature in (0.0, 0.7):
                answer = reply(url, messages, temperature)
                timings = answer["timings"]
                totals["prompt"][0] += timings["prompt_n"]
                totals["prompt"][1] += timings["prompt_ms"] / 1000
                totals["generated"][0] += timings["predicted_n"]
                totals["generated"][1] += timings["predicted_ms"] / 1000
                if temperature == 0.0:
                    totals["greedy"].append(answer["choices"][0]["message"]["content"])
    finally:
        del server
    return totals


def main() -> None:
    """Measure both settings on the same prompts; print their speeds and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spider", type=Path)
    parser.add_argument("--questions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=5)
    arguments = parser.parse_args()
    items = sample(arguments.spider, arguments.questions, arguments.seed)
    prompts = [messages_for(arguments.spider, item) for item in items]
    results = {name: measure(flag, prompts) for name, flag in SETTINGS.items()}
    speeds = {}
    for name, totals in results.items():
        prompt_speed = totals["prompt"][0] / totals["prompt"][1]
        generation_speed = totals["generated"][0] / totals["generated"][1]
        speeds[name] = (prompt_speed, generation_speed)
        print(
            f"{name:22} prompt {prompt_speed:6.1f} tokens/s ({totals['prompt'][0]} tokens)  "
            f"generation {generation_speed:5.2f} tokens/s ({totals['generated'][0]} tokens)"
        )
    (base_prompt, base_generation), (on_prompt, on_generation) = speeds.values()
    print(
        f"on / automatic: {on_prompt / base_prompt:.2f}x the prompt speed, "
        f"{on_generation / base_generation:.2f}x the generation speed"
    )
    automatic, on = (totals["greedy"] for totals in results.values())
    same = sum(a == b for a, b in zip(automatic, on, strict=True))
    print(f"questions: {len(items)} (Spider dev, seed {arguments.seed}); same greedy reply: {same}")


if __name__ == "__main__":
    main()
