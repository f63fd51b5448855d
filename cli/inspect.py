"""`pandora inspect`: the BOXes of a source, and the schema text the LLM will see."""

from __future__ import annotations

import click

from cli.output import json_option, print_json, reports_errors
from cli.sources import open_source, source_options
from plugins import Focus, Workspace, get_registry
from plugins.descriptions import describe_source
from plugins.errors import BadInputError
from plugins.pandas_box import workspace_boxes

MAX_HOPS = 4


@click.command("inspect")
@click.argument("src")
@click.option("--values", type=click.IntRange(min=0), default=0, help="Show the first N rows.")
@click.option("--entities", multiple=True, help="KG topic entity (repeat for several).")
@click.option("--hops", type=int, default=2, show_default=True, help="KG subgraph radius.")
@click.option("--question", help="KG: find the topic entities of this question.")
@click.option(
    "--representation",
    default="pandas",
    show_default=True,
    help="Which schema text to show: pandas, sql, networkx.",
)
@source_options
@json_option
@reports_errors
def inspect_command(
    src: str,
    values: int,
    entities: tuple[str, ...],
    hops: int,
    question: str | None,
    representation: str,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Show the BOXes of SRC (a file or URL) and the schema the LLM sees."""
    if not 0 <= hops <= MAX_HOPS:
        raise BadInputError(f"--hops {hops}: choose between 0 and {MAX_HOPS}")
    source = open_source(src, plugin, source_name, kg)
    workspace = Workspace.of([source])
    focus = Focus(question=question, entities=entities, hops=hops)
    boxes = workspace_boxes(workspace, focus)
    chosen = get_registry().representation(representation)
    if source.kind not in chosen.kinds:
        shown = ", ".join(chosen.kinds)
        raise BadInputError(
            f"{src}: the {representation} representation shows {shown}, not {source.kind}"
        )
    schema = chosen.render_schema(workspace, focus, values)
    description = describe_source(source, boxes, values)
    if as_json:
        print_json({**description.model_dump(), "representation": representation, "schema": schema})
        return
    click.echo(schema)
