"""What a focus linked to: for each KG of a workspace, every question entity
or `--entities` value, the IRI it was linked to, its types, label and score,
and the hops of the subgraph around them.

A wrong link is the silent failure of KG answering: "Vertigo" linked to a
song answers every question about the film wrong, confidently. `inspect`,
`run`, `graph` and `ask` report it, so a person can see it before trusting
the answer.
"""

from __future__ import annotations

from pydantic import BaseModel, Field
from pyoxigraph import NamedNode

from plugins.knowledge_graph.entity_linking import (
    MAX_TOPIC_ENTITIES,
    link_entities,
    resolve_entities,
)
from plugins.knowledge_graph.graph import KnowledgeGraph, Node
from plugins.knowledge_graph.naming import choose_label
from plugins.knowledge_graph.subgraph import Subgraph, focus_subgraph_or_whole_graph
from plugins.model import Focus
from plugins.workspace import Workspace

EXACT_SCORE = 1.0


class LinkedEntity(BaseModel):
    """One entity of the focus: the words that named it (`mention`: the
    question's n-gram or the `--entities` value), the node (`iri`; blank
    nodes as `_:id`), its BOX type names, its display name (`label`, the
    name programs use), and how well it matched (1.0: exactly)."""

    mention: str
    iri: str
    types: list[str] = Field(default_factory=list)
    label: str
    score: float


class GraphFocus(BaseModel):
    """The focus on one KG source: its linked entities and the subgraph
    around them (`whole_graph`: the question named no entity and the KG is
    small enough to be shown whole)."""

    source: str
    hops: int
    entities: list[LinkedEntity] = Field(default_factory=list)
    whole_graph: bool = False
    triples: int
    truncated: bool


def workspace_focus(workspace: Workspace, focus: Focus | None) -> list[GraphFocus]:
    """What `focus` linked to in each KG source of `workspace` (none without a
    focus or a KG); an entity that links to nothing is a BadInputError naming
    the closest labels, as extraction itself raises."""
    if focus is None:
        return []
    return [
        graph_focus(source.name, source.handle, focus)
        for source in workspace.sources
        if source.kind == "kg"
    ]


def graph_focus(source_name: str, kg: KnowledgeGraph, focus: Focus) -> GraphFocus:
    """What `focus` linked to in one KG."""
    subgraph = focus_subgraph_or_whole_graph(kg, focus)
    if focus.entities:
        entities = _given_entities(kg, focus.entities, subgraph)
    else:
        entities = _question_entities(kg, focus.question or "", subgraph)
    return GraphFocus(
        source=source_name,
        hops=focus.hops,
        entities=entities,
        whole_graph=not subgraph.topic_entities,
        triples=len(subgraph.triples),
        truncated=subgraph.truncated,
    )


def _given_entities(
    kg: KnowledgeGraph, texts: tuple[str, ...], subgraph: Subgraph
) -> list[LinkedEntity]:
    linked = []
    for text in texts:
        for node in resolve_entities(kg, (text,)):
            linked.append(_linked(kg, node, text, EXACT_SCORE, subgraph))
    return linked


def _question_entities(kg: KnowledgeGraph, question: str, subgraph: Subgraph) -> list[LinkedEntity]:
    topic = set(subgraph.topic_entities)
    linked: dict[Node, LinkedEntity] = {}
    for match in link_entities(kg, question):
        if match.node in topic and match.node not in linked:
            linked[match.node] = _linked(kg, match.node, match.mention, match.score, subgraph)
    return list(linked.values())[:MAX_TOPIC_ENTITIES]


def _linked(
    kg: KnowledgeGraph, node: Node, mention: str, score: float, subgraph: Subgraph
) -> LinkedEntity:
    label = subgraph.names.entities.get(node)
    if label is None:
        label = choose_label(kg.labels([node]).get(node, []), kg.languages) or node.value
    return LinkedEntity(
        mention=mention,
        iri=node.value if isinstance(node, NamedNode) else str(node),
        types=list(subgraph.names.types.get(node, ())),
        label=label,
        score=round(score, 3),
    )


def focus_line(focus: GraphFocus) -> str:
    """The focus as one line for stderr: `films: 'Vertigo' -> <iri> (film,
    'Vertigo', 1.00); 2 hops, 85 triples`."""
    if focus.whole_graph:
        linked = "no entity named: the whole graph"
    else:
        linked = "; ".join(
            f"{entity.mention!r} -> <{entity.iri}> ({', '.join(entity.types) or 'untyped'}, "
            f"{entity.label!r}, {entity.score:.2f})"
            for entity in focus.entities
        )
    cut = ", cut at the triple cap" if focus.truncated else ""
    hops = "1 hop" if focus.hops == 1 else f"{focus.hops} hops"
    return f"{focus.source}: {linked}; {hops}, {focus.triples} triples{cut}"
