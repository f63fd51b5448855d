"""The IRIs Pandora gives a meaning to: labels, types and XSD datatypes."""

from pyoxigraph import NamedNode

RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
RDFS = "http://www.w3.org/2000/01/rdf-schema#"
XSD = "http://www.w3.org/2001/XMLSchema#"

RDF_TYPE = NamedNode(RDF + "type")
RDFS_LABEL = NamedNode(RDFS + "label")

# Display names come from these predicates, in this order of preference
# (the last one is Freebase's).
LABEL_PREDICATES: tuple[NamedNode, ...] = (
    RDFS_LABEL,
    NamedNode("http://www.w3.org/2004/02/skos/core#prefLabel"),
    NamedNode("http://schema.org/name"),
    NamedNode("https://schema.org/name"),
    NamedNode("http://rdf.freebase.com/ns/type.object.name"),
)

# Predicates that name or type a node rather than relate two things: they
# become display names and BOX types, never edges of an extracted subgraph.
NAMING_PREDICATES: frozenset[NamedNode] = frozenset((RDF_TYPE, *LABEL_PREDICATES))
