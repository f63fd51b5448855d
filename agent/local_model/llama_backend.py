"""llama.cpp's OpenAI-compatible server (xllamacpp) for the local model,
locked down: 127.0.0.1 only, every request but the health check needs the
server's API key, no CORS header for any origin (a web page cannot read its
answers, and its preflight is refused), no /slots, /props or /metrics, no web
UI, no built-in tools, and replies capped at the agent's token limit."""

from __future__ import annotations

from typing import Any

from agent.local_model.sharing import ServerRecord

MAX_REPLY_TOKENS = 1024
"""The same cap as the client's (`agent.llm.MAX_REPLY_TOKENS`), enforced by the server too."""


def serve(record: ServerRecord) -> Any:
    """Start serving `record`'s model file on 127.0.0.1:`record.port`;
    serves while the returned object is referenced."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = record.model_path
    params.n_ctx = record.context_tokens
    params.n_parallel = 1
    params.n_predict = MAX_REPLY_TOKENS
    params.cpuparams.n_threads = record.threads
    params.cpuparams_batch.n_threads = record.threads
    params.hostnames = ["127.0.0.1"]
    params.port = record.port
    params.use_jinja = True
    params.api_keys = [record.api_key]
    params.cors_origins = ""
    params.cors_origins_explicit = True
    params.cors_credentials = False
    params.endpoint_slots = False
    params.endpoint_props = False
    params.endpoint_metrics = False
    params.ui = False
    params.server_tools = []
    return xllamacpp.Server(params)
