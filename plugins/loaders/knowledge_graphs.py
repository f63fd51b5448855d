"""Loaders of knowledge graphs: RDF files, triples TSV, GraphML/GML, SPARQL endpoints.

Files are loaded into an `InMemoryKnowledgeGraph`; a `sparql+http(s)://`
URL becomes a `SparqlKnowledgeGraph` that is queried hop by hop and never
downloaded. Settings from the environment: `PANDORA_KG_LANGUAGES` (label
language preference, comma-separated, default `en`) and
`PANDORA_SPARQL_TIMEOUT` (seconds per endpoint query, default 30) and
`PANDORA_KG_LABEL_PREDICATES` (comma-separated IRIs of predicates that name
entities, for KGs without rdfs:label; detected from the KG when unset).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pyoxigraph import NamedNode

from plugins.errors import BadInputError
from plugins.hookspecs import hookimpl
from plugins.knowledge_graph.graph import Statement
from plugins.knowledge_graph.graphml import GRAPH_EXTENSIONS, read_graph_file
from plugins.knowledge_graph.rdf_files import RDF_EXTENSIONS, read_rdf_file
from plugins.knowledge_graph.terms import named_node, spelled_iri
from plugins.knowledge_graph.triples_tsv import read_triples_tsv
from plugins.model import Source, SourceKind
from plugins.names import make_identifier

SPARQL_SCHEMES = ("sparql+http", "sparql+https")
DEFAULT_SPARQL_TIMEOUT_SECONDS = 30.0


def label_languages() -> tuple[str, ...]:
    """The preferred label languages, from `PANDORA_KG_LANGUAGES` (default `en`)."""
    setting = os.environ.get("PANDORA_KG_LANGUAGES", "en")
    return tuple(language.strip() for language in setting.split(",") if language.strip())


def label_predicates_setting() -> tuple[NamedNode, ...]:
    """The IRIs in `PANDORA_KG_LABEL_PREDICATES`; a malformed one is bad input."""
    predicates = []
    for text in os.environ.get("PANDORA_KG_LABEL_PREDICATES", "").split(","):
        if not text.strip():
            continue
        iri = spelled_iri(text)
        predicate = named_node(iri) if iri else None
        if predicate is None:
            raise BadInputError(
                f"PANDORA_KG_LABEL_PREDICATES: {text.strip()!r} is not an IRI "
                "(give full IRIs, comma-separated)"
            )
        predicates.append(predicate)
    return tuple(predicates)


@dataclass(frozen=True)
class KnowledgeGraphFileLoader:
    """Loads a KG file with `read` into memory."""

    name: str
    extensions: tuple[str, ...]
    read: Callable[[str], Iterator[Statement]]
    kind: SourceKind = "kg"
    schemes: tuple[str, ...] = ()

    def load(self, location: str, name: str | None) -> Source:
        """Read the whole file; bad syntax is a BadInputError with its line."""
        path = Path(location)
        if not path.is_file():
            raise BadInputError(f"{location}: no such file")
        from plugins.knowledge_graph.memory_store import InMemoryKnowledgeGraph  # start-up speed

        kg = InMemoryKnowledgeGraph.from_triples(
            location, self.read(location), label_languages(), label_predicates_setting()
        )
        return Source(name or make_identifier(path.stem), "kg", self.name, location, kg)


@dataclass(frozen=True)
class SparqlEndpointLoader:
    """Connects to a SPARQL endpoint named `sparql+http(s)://host/path`."""

    name: str = "sparql"
    kind: SourceKind = "kg"
    extensions: tuple[str, ...] = ()
    schemes: tuple[str, ...] = SPARQL_SCHEMES

    def load(self, location: str, name: str | None) -> Source:
        """Check the endpoint answers one query; nothing is downloaded."""
        scheme, _, rest = location.partition("+")
        if scheme.lower() != "sparql" or not rest.startswith(("http://", "https://")):
            raise BadInputError(
                f"{location}: a SPARQL endpoint is named sparql+http(s)://host/path"
            )
        from plugins.knowledge_graph.sparql_client import SparqlClient  # start-up speed
        from plugins.knowledge_graph.sparql_store import SparqlKnowledgeGraph

        client = SparqlClient(rest, _sparql_timeout(location))
        client.ask("ASK { ?s ?p ?o }")
        kg = SparqlKnowledgeGraph(location, client, label_languages(), label_predicates_setting())
        default_name = make_identifier(urlsplit(rest).hostname or "sparql", fallback="sparql")
        return Source(name or default_name, "kg", self.name, location, kg)


def _sparql_timeout(location: str) -> float:
    setting = os.environ.get("PANDORA_SPARQL_TIMEOUT", str(DEFAULT_SPARQL_TIMEOUT_SECONDS))
    try:
        timeout = float(setting)
    except ValueError:
        timeout = 0.0
    if timeout <= 0:
        raise BadInputError(
            f"{location}: PANDORA_SPARQL_TIMEOUT must be a positive number of seconds"
        )
    return timeout


LOADERS = (
    KnowledgeGraphFileLoader("rdf", RDF_EXTENSIONS, read_rdf_file),
    KnowledgeGraphFileLoader("triples", (), read_triples_tsv),
    KnowledgeGraphFileLoader("graphml", GRAPH_EXTENSIONS, read_graph_file),
    SparqlEndpointLoader(),
)


@hookimpl
def register_loaders(register: Callable) -> None:
    """Register the RDF, triples-TSV, GraphML/GML and SPARQL-endpoint loaders."""
    for loader in LOADERS:
        register(loader)
