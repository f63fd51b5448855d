"""The local model's server process: llama.cpp's OpenAI-compatible server
(xllamacpp), bound to 127.0.0.1, alive while its parent is.

Run by `agent.local_model.server` as
`python -m agent.local_model.child MODEL PORT THREADS CONTEXT`. It ends on
SIGTERM (the parent stopping it) or when its parent is gone: a parent that
was killed cannot stop it, so it watches its parent's pid itself.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

PARENT_CHECK_SECONDS = 1.0


def serve(model: str, port: int, threads: int, context_tokens: int) -> None:
    """Serve `model` on 127.0.0.1:`port` until stopped or orphaned."""
    import xllamacpp

    parent = os.getppid()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.n_ctx = context_tokens
    params.n_parallel = 1
    params.cpuparams.n_threads = threads
    params.cpuparams_batch.n_threads = threads
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.use_jinja = True
    _server = xllamacpp.Server(params)  # serves while referenced
    while not stop.wait(PARENT_CHECK_SECONDS) and os.getppid() == parent:
        pass
    # The server's own shutdown waits for a running completion to finish,
    # minutes on a busy CPU; nothing is left to save, so leave at once.
    os._exit(0)


if __name__ == "__main__":
    model_file, port_text, threads_text, context_text = sys.argv[1:5]
    serve(model_file, int(port_text), int(threads_text), int(context_text))
