"""Whether llama.cpp writes several samples of one prompt faster side by side
than one after another, on this machine: the question behind the agent's
candidates and readings, which ask for samples of one prompt in turn.

Two servers of the local model are started in turn (never both at once):
one slot answering four sampled requests one after another (the baseline,
as the product serves), and four slots answering the same four requests at
once. Each is warmed first with the prompt, greedily, so the single slot's
samples find it cached. Printed per prompt size: seconds, generated tokens
per second, prompt tokens each request computed, and the ratio of the side
by side time to the baseline's.

Run: python benchmarks/parallel_samples.py  (the model file must be joined:
`pandora model serve` once, or PANDORA_MODEL_DIR; nothing else may run)
"""

from __future__ import annotations

import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

REPOSITORY = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPOSITORY))  # before benchmarks/, whose agent.py is not the package

from agent.local_model.files import model_path  # noqa: E402

SAMPLES = 4
REPLY_TOKENS = 160
PROMPT_ROWS = {"short prompt (5 rows)": 5, "long prompt (120 rows)": 120}


def prompt(rows: int) -> str:
    """A table-question prompt of about 23 tokens per row."""
    table = "\n".join(
        f"{i},City {i},Country {i % 7},{1000 + i * 37},{1900 + i % 100}" for i in range(rows)
    )
    return (
        "Here is a table as CSV (id,name,country,population,founded):\n"
        f"{table}\n\nWrite one SQLite query over table t that answers: which country has the "
        "largest total population among cities founded after 1950? Say the steps in one "
        "sentence, then give the query in a fenced block."
    )


def start(slots: int, flash_attention: bool = False) -> tuple[Any, str]:
    """A server of the local model with `slots` slots, and its chat URL, once
    it answers; with llama.cpp's automatic attention as the product serves,
    or flash attention on."""
    import xllamacpp

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    params.n_ctx = 8192 * slots
    params.n_parallel = slots
    params.kv_unified = slots > 1
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = 2
    if flash_attention:
        params.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_ENABLED
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.use_jinja = True
    server = xllamacpp.Server(params)
    for _ in range(1200):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    return server, f"http://127.0.0.1:{port}/v1/chat/completions"


def ask(url: str, text: str, seed: int, temperature: float) -> dict[str, Any]:
    """One chat completion; its usage and llama.cpp's own timings."""
    body = {
        "messages": [{"role": "user", "content": text}],
        "temperature": temperature,
        "seed": seed,
        "max_tokens": REPLY_TOKENS,
        "cache_prompt": True,
    }
    return httpx.post(url, json=body, timeout=1800).json()


def measure(slots: int, text: str) -> tuple[float, int, list[int]]:
    """Seconds for SAMPLES sampled replies (side by side when `slots` > 1),
    the tokens they generated, and the prompt tokens each computed."""
    server, url = start(slots)
    try:
        ask(url, text, seed=0, temperature=0.0)
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=slots) as pool:
            replies = list(pool.map(lambda seed: ask(url, text, seed, 0.7), range(1, SAMPLES + 1)))
        seconds = time.perf_counter() - started
    finally:
        del server
    generated = sum(reply["usage"]["completion_tokens"] for reply in replies)
    return seconds, generated, [reply["timings"]["prompt_n"] for reply in replies]


def main() -> None:
    """Print the baseline and the side-by-side figures for each prompt size."""
    for label, rows in PROMPT_ROWS.items():
        text = prompt(rows)
        in_turn = measure(1, text)
        at_once = measure(SAMPLES, text)
        print(f"{label}:")
        print(_figures("one slot, in turn", *in_turn))
        print(_figures(f"{SAMPLES} slots, at once", *at_once))
        print(f"  side by side / in turn: {at_once[0] / in_turn[0]:.2f}x the time")


def _figures(name: str, seconds: float, generated: int, computed: list[int]) -> str:
    return (
        f"  {name:20} {seconds:6.1f} s, {generated / seconds:5.1f} generated tokens/s, "
        f"prompt tokens computed per request {computed}"
    )


if __name__ == "__main__":
    main()
