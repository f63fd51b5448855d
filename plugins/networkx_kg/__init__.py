"""The `networkx` representation (KG2Code): a KG subgraph as NetworkX code.

The LLM sees the question's subgraph as the code that builds it
(`graph = nx.MultiDiGraph()`, `graph.add_edge(head, tail, relation=...)`)
and completes `KGQA(question, graph)`; the executor runs it with `graph`,
`nx` and `question` (see `namespace`). When the code cannot run, the answer
in its last comment line is the soft answer (`parse_soft_answer`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plugins.errors import BadInputError
from plugins.hookspecs import hookimpl
from plugins.model import Focus, Vocabulary
from plugins.networkx_kg.prompts import (
    KG2CODE_GUIDANCE,
    KG2CODE_REQUIREMENT,
    KG2CODE_TEMPLATE,
    NETWORKX_INSTRUCTION,
)
from plugins.networkx_kg.soft_answer import parse_soft_answer
from plugins.representation_defaults import RepresentationDefaults
from plugins.workspace import Workspace

if TYPE_CHECKING:  # NetworkX and the KG machinery are imported when used: start-up speed
    from plugins.knowledge_graph.subgraph import Subgraph
    from plugins.networkx_kg.graph_code import GraphElements

__all__ = [
    "KG2CODE_GUIDANCE",
    "KG2CODE_REQUIREMENT",
    "KG2CODE_TEMPLATE",
    "NETWORKX_INSTRUCTION",
    "NetworkxRepresentation",
    "parse_soft_answer",
    "workspace_subgraphs",
]


def workspace_subgraphs(workspace: Workspace, focus: Focus) -> list[Subgraph]:
    """The focus subgraph of every KG source of `workspace`."""
    from plugins.knowledge_graph.subgraph import focus_subgraph

    kg_sources = [source for source in workspace.sources if source.kind == "kg"]
    if not kg_sources:
        raise BadInputError("the networkx representation needs a knowledge-graph source")
    return [focus_subgraph(source.handle, focus) for source in kg_sources]


class NetworkxRepresentation(RepresentationDefaults):
    """KG subgraphs as NetworkX code; generated code defines `KGQA(question, graph)`."""

    name = "networkx"
    description = "the question's KG subgraph as NetworkX code; code defines KGQA(question, graph)"
    kinds = ("kg",)
    language = "python"
    schema_heading = "## Knowledge graph (NetworkX code)"
    code_requirement = KG2CODE_REQUIREMENT

    def render_schema(
        self, workspace: Workspace, focus: Focus | None = None, values: int = 0
    ) -> str:
        """The code building the focus subgraph (the graph is its own values,
        so `values` changes nothing)."""
        from plugins.networkx_kg.graph_code import graph_code

        subgraphs = workspace_subgraphs(workspace, focus or Focus())
        return graph_code(_elements(workspace, focus or Focus()), _topic_comment(subgraphs))

    def namespace(self, workspace: Workspace, focus: Focus | None = None) -> dict[str, Any]:
        """`graph` (the focus subgraph), `nx` and `question`. Without a focus
        (the executor warming a worker up) the graph is empty."""
        import networkx as nx

        from plugins.networkx_kg.graph_code import build_graph

        if focus is None:
            return {"graph": nx.MultiDiGraph(), "nx": nx, "question": None}
        return {
            "graph": build_graph(_elements(workspace, focus)),
            "nx": nx,
            "question": focus.question,
        }

    def instruction(self, workspace: Workspace) -> str:
        """How to write `KGQA(question, graph)` (the same for every workspace)."""
        return NETWORKX_INSTRUCTION

    def vocabulary(self, workspace: Workspace, focus: Focus | None = None) -> Vocabulary:
        """The graph's node names, then its relation names: feedback names the
        closest ones when code looks up a node or relation that is not there."""
        graph = self.namespace(workspace, focus)["graph"]
        relations = {str(data.get("relation")) for _, _, data in graph.edges(data=True)}
        return Vocabulary(names=[str(node) for node in graph.nodes] + sorted(relations))

    def soft_answer(self, code: str) -> list[list[str]] | None:
        """The answer of the code's last `# label: value` comment (`parse_soft_answer`)."""
        return parse_soft_answer(code)


def _elements(workspace: Workspace, focus: Focus) -> list[GraphElements]:
    from plugins.networkx_kg.graph_code import graph_elements

    return workspace.derived(
        "networkx",
        focus,
        lambda: [graph_elements(s) for s in workspace_subgraphs(workspace, focus)],
    )


def _topic_comment(subgraphs: list[Subgraph]) -> str:
    topic = [name for subgraph in subgraphs for name in subgraph.topic_entity_names()]
    lines = [f"topic entities: {', '.join(topic)}"]
    if any(s.truncated for s in subgraphs):
        lines.append("some hops were cut at the triple cap: the graph may be incomplete")
    return "\n".join(lines)


@hookimpl
def register_representations(register: Callable[..., None]) -> None:
    """The built-in `networkx` representation."""
    register(NetworkxRepresentation())
