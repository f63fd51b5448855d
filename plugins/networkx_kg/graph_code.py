"""A KG subgraph as a NetworkX graph and as the Python code that builds it.

Both come from one list of nodes and edges, so the code the LLM reads
executes to exactly the graph its program is given. Entities are nodes
named by display name (with a `types` attribute when typed); literal values
are nodes holding the Python value (int, float, bool, str, `date`,
`datetime`), so code can compare them. A literal string equal to an
entity's name is the same node, as in KG2Code.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from dataclasses import dataclass
from typing import Any

import networkx as nx
from pyoxigraph import Literal

from plugins.knowledge_graph.subgraph import Subgraph
from plugins.knowledge_graph.terms import literal_value


@dataclass(frozen=True)
class GraphElements:
    """Nodes (name, type names) and edges (head, tail, relation) of a subgraph."""

    nodes: list[tuple[str, tuple[str, ...]]]
    edges: list[tuple[Any, Any, str]]


def graph_elements(subgraph: Subgraph) -> GraphElements:
    """The nodes and edges shown for `subgraph`, in extraction order."""
    names = subgraph.names
    nodes = [(names.entities[node], names.types.get(node, ())) for node in subgraph.entities]
    edges = []
    for subject, predicate, obj in subgraph.triples:
        tail = literal_value(obj) if isinstance(obj, Literal) else names.entities[obj]
        edges.append((names.entities[subject], tail, names.relations[predicate]))
    return GraphElements(nodes, edges)


def build_graph(elements: list[GraphElements]) -> nx.MultiDiGraph:
    """The MultiDiGraph of one or more sources' elements."""
    graph = nx.MultiDiGraph()
    for part in elements:
        for name, types in part.nodes:
            if types:
                graph.add_node(name, types=list(types))
            else:
                graph.add_node(name)
        for head, tail, relation in part.edges:
            graph.add_edge(head, tail, relation=relation)
    return graph


def graph_code(elements: list[GraphElements], comment: str = "") -> str:
    """Python code that builds the same graph as `build_graph(elements)`."""
    needs = set()
    body = []
    for part in elements:
        for name, types in part.nodes:
            attributes = f", types={json.dumps(list(types), ensure_ascii=False)}" if types else ""
            body.append(f"graph.add_node({_value_code(name, needs)}{attributes})")
        for head, tail, relation in part.edges:
            body.append(
                f"graph.add_edge({_value_code(head, needs)}, {_value_code(tail, needs)}, "
                f"relation={_value_code(relation, needs)})"
            )
    header = ["import networkx as nx"]
    if needs:
        header.append(f"from datetime import {', '.join(sorted(needs))}")
    if comment:
        header.extend(f"# {line}" for line in comment.splitlines())
    return "\n".join([*header, "", "graph = nx.MultiDiGraph()", *body]) + "\n"


def _value_code(value: Any, needs: set[str]) -> str:
    if isinstance(value, dt.datetime):
        needs.add("datetime")
        return f"datetime.fromisoformat({value.isoformat()!r})"
    if isinstance(value, dt.date):
        needs.add("date")
        return f"date({value.year}, {value.month}, {value.day})"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({str(value)!r})"
    return repr(value)
