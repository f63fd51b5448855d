"""Reading `subject<TAB>predicate<TAB>object` files (KG2Code / WebQSP style).

Subjects and predicates are names (`Dino Verde`, `film.film.written_by`) or
IRIs. An object is a literal when it is written as one in N-Triples syntax
(`"1.37:1"^^<...>`, `"Roma"@it`), or looks like a number or an ISO date;
otherwise it is an entity. Names that are not IRIs become `urn:pandora:`
IRIs whose local name is the name itself, so they display unchanged.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from urllib.parse import quote

import pyoxigraph
from pyoxigraph import Literal, NamedNode, Triple

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import Statement, Term
from plugins.knowledge_graph.vocabulary import XSD

NAME_NAMESPACE = "urn:pandora:"
HEADERS = {("subject", "predicate", "object"), ("head", "relation", "tail"), ("s", "p", "o")}
_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?|[+-]?\d+[eE][+-]?\d+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def read_triples_tsv(path: str) -> Iterator[Statement]:
    """The triples of a three-column TSV file; an optional header row is skipped."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            for line_number, row in enumerate(
                csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE), 1
            ):
                if not row or (len(row) == 1 and not row[0].strip()):
                    continue
                if len(row) != 3:
                    raise BadInputError(
                        f"{path}: line {line_number} has {len(row)} tab-separated fields, "
                        "expected subject<TAB>predicate<TAB>object"
                    )
                subject, predicate, obj = (cell.strip() for cell in row)
                if (
                    line_number == 1
                    and (subject.lower(), predicate.lower(), obj.lower()) in HEADERS
                ):
                    continue
                yield Triple(
                    node_from_name(subject),
                    node_from_name(predicate),
                    _object(obj, path, line_number),
                )
    except (OSError, UnicodeDecodeError) as error:
        raise BadInputError(f"{path}: cannot read triples: {error}") from error


def node_from_name(text: str) -> NamedNode:
    """The IRI `text` is, or a `urn:pandora:` IRI whose local name is `text`."""
    if "://" in text or text.startswith("urn:"):
        try:
            return NamedNode(text.strip("<>"))
        except ValueError:
            pass
    return NamedNode(NAME_NAMESPACE + quote(text, safe=""))


def _object(text: str, path: str, line_number: int) -> Term:
    if text.startswith('"'):
        return _parse_literal(text, path, line_number)
    if _INTEGER.fullmatch(text):
        return Literal(text, datatype=NamedNode(XSD + "integer"))
    if _DECIMAL.fullmatch(text):
        return Literal(text, datatype=NamedNode(XSD + "double"))
    if _DATE.fullmatch(text):
        return Literal(text, datatype=NamedNode(XSD + "date"))
    return node_from_name(text)


def _parse_literal(text: str, path: str, line_number: int) -> Literal:
    """An N-Triples literal, parsed by pyoxigraph so escapes follow the spec."""
    document = f"<urn:s> <urn:p> {text} ."
    try:
        (triple,) = pyoxigraph.parse(document, format=pyoxigraph.RdfFormat.N_TRIPLES)
    except (SyntaxError, ValueError) as error:
        raise BadInputError(
            f"{path}: line {line_number}: malformed literal {text[:40]!r}: {error}"
        ) from error
    return triple.object
