"""Reading RDF files: every format rdflib reads, parsed by pyoxigraph where it can.

pyoxigraph (Rust) parses Turtle, N-Triples, N-Quads, RDF/XML, JSON-LD, TriG
and N3 about ten times faster than rdflib; TriX and HexTuples, which only
rdflib reads, go through rdflib and are converted. Named graphs of quad
formats are merged into one graph. Syntax errors become a one-line
`BadInputError` with the line number when the parser knows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph
from pyoxigraph import BlankNode, Literal, NamedNode, RdfFormat

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import Statement, Term

if TYPE_CHECKING:
    import rdflib

PYOXIGRAPH_FORMATS: dict[str, RdfFormat] = {
    ".ttl": RdfFormat.TURTLE,
    ".nt": RdfFormat.N_TRIPLES,
    ".nq": RdfFormat.N_QUADS,
    ".rdf": RdfFormat.RDF_XML,
    ".owl": RdfFormat.RDF_XML,
    ".jsonld": RdfFormat.JSON_LD,
    ".trig": RdfFormat.TRIG,
    ".n3": RdfFormat.N3,
}
RDFLIB_FORMATS: dict[str, str] = {".trix": "trix", ".hext": "hext"}
RDF_EXTENSIONS: tuple[str, ...] = (*PYOXIGRAPH_FORMATS, *RDFLIB_FORMATS)


def read_rdf_file(path: str) -> Iterator[Statement]:
    """The triples of the RDF file at `path`, format chosen by extension."""
    extension = Path(path).suffix.lower()
    if extension in RDFLIB_FORMATS:
        return _read_with_rdflib(path, RDFLIB_FORMATS[extension])
    if extension not in PYOXIGRAPH_FORMATS:
        known = " ".join(RDF_EXTENSIONS)
        raise BadInputError(f"{path}: not an RDF file extension {extension!r}; known: {known}")
    return _read_with_pyoxigraph(path, PYOXIGRAPH_FORMATS[extension])


def _read_with_pyoxigraph(path: str, rdf_format: RdfFormat) -> Iterator[Statement]:
    try:
        yield from pyoxigraph.parse(path=path, format=rdf_format)
    except SyntaxError as error:
        raise BadInputError(_syntax_message(path, rdf_format.name, error)) from error
    except (OSError, ValueError) as error:
        raise BadInputError(f"{path}: cannot read {rdf_format.name}: {error}") from error


def _syntax_message(path: str, format_name: str, error: SyntaxError) -> str:
    text = " ".join(str(error.msg).split())
    where = f" at line {error.lineno}" if error.lineno else ""
    return f"{path}: malformed {format_name}{where}: {text}"


def _read_with_rdflib(path: str, rdflib_format: str) -> Iterator[Statement]:
    import rdflib  # only the formats pyoxigraph cannot read need it

    dataset = rdflib.Dataset()
    try:
        dataset.parse(path, format=rdflib_format)
    except Exception as error:  # rdflib raises many unrelated types for bad syntax
        message = " ".join(str(error).split()) or type(error).__name__
        raise BadInputError(f"{path}: malformed {rdflib_format}: {message}") from error
    for subject, predicate, obj, _ in dataset.quads((None, None, None, None)):
        yield pyoxigraph.Triple(
            from_rdflib_term(subject), from_rdflib_term(predicate), from_rdflib_term(obj)
        )


def from_rdflib_term(term: rdflib.term.Node) -> Term:
    """The pyoxigraph term equal to an rdflib term."""
    import rdflib

    if isinstance(term, rdflib.BNode):
        return BlankNode(str(term))
    if isinstance(term, rdflib.Literal):
        if term.language:
            return Literal(str(term), language=term.language)
        if term.datatype:
            return Literal(str(term), datatype=NamedNode(str(term.datatype)))
        return Literal(str(term))
    return NamedNode(str(term))
