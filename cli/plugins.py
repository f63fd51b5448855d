"""`pandora plugins`: what every installed plugin contributes, and which failed."""

from __future__ import annotations

import click

from cli.output import json_option, print_json, reports_errors, terminal_safe
from plugins import get_registry


@click.command("plugins")
@json_option
@reports_errors
def plugins_command(as_json: bool) -> None:
    """List installed plugins, their loaders and representations."""
    registry = get_registry()
    payload = {
        "plugins": [
            {"name": name, "contributes": contributed}
            for name, contributed in sorted(registry.contributions.items())
        ],
        "loaders": [
            {
                "name": loader.name,
                "kind": loader.kind,
                "extensions": list(loader.extensions),
                "schemes": list(loader.schemes),
            }
            for loader in registry.loaders
        ],
        "representations": [
            {
                "name": r.name,
                "description": r.description,
                "kinds": list(r.kinds),
                "language": r.language,
            }
            for r in registry.representations.values()
        ],
        "broken": [{"name": b.name, "target": b.target, "error": b.error} for b in registry.broken],
    }
    if as_json:
        print_json(payload)
        return
    lines = [
        f"{plugin['name']}: {', '.join(plugin['contributes']) or '(nothing)'}"
        for plugin in payload["plugins"]
    ]
    lines += [f"{broken['name']}: BROKEN ({broken['error']})" for broken in payload["broken"]]
    click.echo(terminal_safe("\n".join(lines)))
