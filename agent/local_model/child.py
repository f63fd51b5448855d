"""The local model's server process: llama.cpp's OpenAI-compatible server
(xllamacpp), bound to 127.0.0.1, alive until its parent closes our stdin.

Run by `agent.local_model.server` as
`python -m agent.local_model.child MODEL PORT THREADS CONTEXT`; reading stdin
to its end is how it notices the parent is gone, even when the parent was
killed and could not stop it.
"""

from __future__ import annotations

import sys


def serve(model: str, port: int, threads: int, context_tokens: int) -> None:
    """Serve `model` on 127.0.0.1:`port` until stdin closes."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_ctx = context_tokens
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.use_jinja = True
    server = xllamacpp.Server(params)
    sys.stdin.buffer.read()
    del server


if __name__ == "__main__":
    model_file, port_text, threads_text, context_text = sys.argv[1:5]
    serve(model_file, int(port_text), int(threads_text), int(context_text))
