"""`pandora inspect`: the BOXes of sources, and the schema text the LLM will see.

A knowledge graph shows BOXes only for a focus (its topic entities, or a
question to find them in), and says what the focus linked to (`focus` in
--json, a line on stderr otherwise); without one it is shown as an overview:
its types with their counts and a few entities of each, the names
`--entities` takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from cli.focus import report_focus
from cli.output import json_option, print_json, reports_errors, terminal_safe
from cli.sources import focus_of, focus_options, open_workspace, source_options
from plugins import Box, Source, Workspace, get_registry
from plugins.errors import BadInputError
from plugins.pandas_box import workspace_boxes

if TYPE_CHECKING:
    from plugins.knowledge_graph.overview import KnowledgeGraphOverview

EXAMPLES_PER_TYPE = 3


@click.command("inspect")
@click.argument("srcs", nargs=-1, required=True, metavar="SRC [SRC...]")
@click.option(
    "--values", type=click.IntRange(min=0), default=0, help="Show the first N rows of every BOX."
)
@focus_options
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
    srcs: tuple[str, ...],
    values: int,
    entities: tuple[str, ...],
    question: str | None,
    hops: int,
    representation: str,
    plugin: str | None,
    source_name: str | None,
    kg: bool,
    as_json: bool,
) -> None:
    """Show the BOXes of SRC... (files or URLs) and the schema the LLM sees."""
    workspace = open_workspace(srcs, plugin, source_name, kg)
    chosen = get_registry().representation(representation)
    for source in workspace.sources:
        if source.kind not in chosen.kinds:
            shown = ", ".join(chosen.kinds)
            raise BadInputError(
                f"{source.location}: the {representation} representation shows {shown}, "
                f"not {source.kind}"
            )
    focus = focus_of(entities, question, hops)
    linked = _linked(workspace, focus)
    unfocused = [s for s in workspace.sources if s.kind == "kg" and focus is None]
    shown_sources = Workspace.of(s for s in workspace.sources if s not in unfocused)
    boxes = workspace_boxes(shown_sources, focus)
    schema = chosen.render_schema(shown_sources, focus, values) if shown_sources.sources else ""
    overviews = [knowledge_graph_overview(source) for source in unfocused]
    if as_json:
        payload = json_payload(workspace, boxes, values, overviews)
        focus_json = [graph.model_dump() for graph in linked]
        print_json(
            {**payload, "representation": representation, "schema": schema, "focus": focus_json}
        )
        return
    report_focus(linked)
    texts = [schema] if schema else []
    texts += [overview_text(overview) for overview in overviews]
    click.echo(terminal_safe("\n\n".join(texts)))


def json_payload(
    workspace: Workspace, boxes: list[Box], values: int, overviews: list[KnowledgeGraphOverview]
) -> dict[str, Any]:
    """The sources (and `source` when there is one), BOXes and KG overviews as JSON."""
    from plugins.descriptions import describe_workspace, summarise_source  # JSON only: pydantic

    payload = describe_workspace(workspace.sources, boxes, values).model_dump()
    if len(workspace.sources) == 1:
        payload["source"] = summarise_source(workspace.sources[0]).model_dump()
    payload["knowledge_graphs"] = [overview.model_dump() for overview in overviews]
    return payload


def knowledge_graph_overview(source: Source) -> KnowledgeGraphOverview:
    """The types, counts and example entities of a KG asked about without a focus."""
    from plugins.knowledge_graph.overview import describe_knowledge_graph

    return describe_knowledge_graph(source, examples_per_type=EXAMPLES_PER_TYPE)


def overview_text(overview: KnowledgeGraphOverview) -> str:
    """The overview as comment lines, like the schema text it may follow."""
    lines = [
        f"# {overview.source}: a knowledge graph of {overview.triples} triples "
        f"({overview.location})",
        "# types (BOX names), instances and a few entities:",
    ]
    for kind in overview.types:
        lines.append(f"#   {kind.name} ({kind.count}): {', '.join(kind.examples)}")
    predicates = ", ".join(f"{p.name} ({p.count})" for p in overview.predicates)
    lines.append(f"# relations: {predicates}")
    lines.append("# pass --entities or --question to see the BOXes of the subgraph around them")
    return "\n".join(lines)


def _linked(workspace: Workspace, focus: Any) -> list[Any]:
    """What the focus linked in each KG; nothing to import without a KG."""
    if not any(source.kind == "kg" for source in workspace.sources):
        return []
    from plugins.knowledge_graph.focus_report import workspace_focus

    return workspace_focus(workspace, focus)
