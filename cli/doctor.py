"""`pandora doctor`: what isolation generated code gets on this machine, and what is broken.

It starts one real executor worker on a one-cell table, runs a one-line
program in it, and reports the kernel layers that worker applied to itself.
A missing layer is reported loudly, never hidden.
"""

from __future__ import annotations

import platform
import sys
import tempfile
from pathlib import Path

import click

from cli.output import EXIT_FAILED, json_option, print_json, reports_errors
from plugins import Workspace, get_registry, load_source
from plugins.executor import LockdownReport, execute, executor_diagnostics


@click.command("doctor")
@json_option
@reports_errors
def doctor_command(as_json: bool) -> None:
    """Check the sandbox (seccomp, Landlock, limits) and the installed plugins."""
    with tempfile.TemporaryDirectory() as folder:
        table = Path(folder) / "probe.csv"
        table.write_text("x\n41\n")
        outcome = execute("result = probe['x'] + 1", Workspace.of([load_source(str(table))]))
    diagnostics = executor_diagnostics()
    broken = [{"name": b.name, "error": b.error} for b in get_registry().broken]
    worker_ran = outcome.error is None and outcome.result == [[42]]
    payload = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "worker_ran": worker_ran,
        "executor": diagnostics.model_dump(),
        "broken_plugins": broken,
        "ok": worker_ran and not diagnostics.warnings and not broken,
    }
    if as_json:
        print_json(payload)
    else:
        _print_report(payload, diagnostics.workers[-1] if diagnostics.workers else None)
    if not worker_ran:
        sys.exit(EXIT_FAILED)


def _print_report(payload: dict, lockdown: LockdownReport | None) -> None:
    executor = payload["executor"]
    click.echo(f"python {payload['python']} on {payload['platform']}")
    click.echo(f"executor worker ran a program: {'yes' if payload['worker_ran'] else 'NO'}")
    if lockdown is not None:
        click.echo(
            f"seccomp: {'on' if lockdown.seccomp else 'OFF'} ({lockdown.seccomp_rules} rules), "
            f"Landlock ABI: {lockdown.landlock_abi or 'OFF'}, "
            f"rlimits: {', '.join(sorted(lockdown.rlimits)) or 'OFF'}"
        )
    for warning in executor["warnings"]:
        click.echo(f"WARNING: {warning}")
    for plugin in payload["broken_plugins"]:
        click.echo(f"WARNING: plugin {plugin['name']} is broken: {plugin['error']}")
    click.echo("all good" if payload["ok"] else "problems found (see above)")
