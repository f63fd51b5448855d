"""Reading GraphML and GML graphs through networkx.

Nodes are entities named after their id; a `label` or `name` attribute
becomes their rdfs:label, a `type` attribute their rdf:type, and any other
attribute a literal-valued relation. An edge's `relation` (or `label`,
`predicate`, `type`) attribute names its relation, `related_to` when it has
none. Undirected graphs keep each edge in the direction the file lists it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pyoxigraph import Literal, NamedNode, Triple

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import Statement
from plugins.knowledge_graph.triples_tsv import node_from_name

if TYPE_CHECKING:
    import networkx as nx
from plugins.knowledge_graph.vocabulary import RDF_TYPE, RDFS_LABEL, XSD

GRAPH_EXTENSIONS = (".graphml", ".gml")
_NODE_NAME_ATTRIBUTES = ("label", "name")
_EDGE_RELATION_ATTRIBUTES = ("relation", "label", "predicate", "type")


def read_graph_file(path: str) -> Iterator[Statement]:
    """The triples of a GraphML or GML file."""
    graph = _read(path)
    for node_id, attributes in graph.nodes(data=True):
        node = node_from_name(str(node_id))
        for key, value in attributes.items():
            if key in _NODE_NAME_ATTRIBUTES:
                yield Triple(node, RDFS_LABEL, Literal(str(value)))
            elif key == "type":
                yield Triple(node, RDF_TYPE, node_from_name(str(value)))
            else:
                yield Triple(node, node_from_name(str(key)), _literal(value))
    for head, tail, attributes in graph.edges(data=True):
        relation = next(
            (str(attributes[key]) for key in _EDGE_RELATION_ATTRIBUTES if key in attributes),
            "related_to",
        )
        yield Triple(node_from_name(str(head)), node_from_name(relation), node_from_name(str(tail)))


def _read(path: str) -> nx.Graph:
    import networkx as nx  # only GraphML/GML sources need it

    reader = nx.read_graphml if Path(path).suffix.lower() == ".graphml" else nx.read_gml
    try:
        return reader(path)
    except Exception as error:  # networkx raises many types for malformed files
        message = " ".join(str(error).split()) or type(error).__name__
        raise BadInputError(f"{path}: malformed graph file: {message}") from error


def _literal(value: Any) -> Literal:
    if isinstance(value, bool):
        return Literal(str(value).lower(), datatype=NamedNode(XSD + "boolean"))
    if isinstance(value, int):
        return Literal(str(value), datatype=NamedNode(XSD + "integer"))
    if isinstance(value, float):
        return Literal(repr(value), datatype=NamedNode(XSD + "double"))
    return Literal(str(value))
