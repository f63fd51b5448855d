"""Knowledge-graph machinery shared by the KG loaders and representations.

A loaded KG is a `KnowledgeGraph` (in memory, integer-encoded; or a SPARQL
endpoint). Entity linking finds a question's topic entities, subgraph
extraction takes the H-hop neighbourhood around them, and naming turns RDF
terms into the display names BOXes and NetworkX code show.
"""

from plugins.knowledge_graph.graph import Direction, KnowledgeGraph, Term, Triple
from plugins.knowledge_graph.subgraph import ExtractionLimits, Subgraph, focus_subgraph

__all__ = [
    "Direction",
    "ExtractionLimits",
    "KnowledgeGraph",
    "Subgraph",
    "Term",
    "Triple",
    "focus_subgraph",
]
