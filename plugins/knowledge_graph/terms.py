"""RDF terms as Python values: literal datatypes and IRI local names."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from urllib.parse import unquote

from pyoxigraph import BlankNode, Literal, NamedNode

from plugins.knowledge_graph.vocabulary import XSD

LiteralValue = int | float | bool | str | dt.date | dt.datetime


def _to_bool(text: str) -> bool:
    if text in ("true", "1"):
        return True
    if text in ("false", "0"):
        return False
    raise ValueError(text)


def _to_float(text: str) -> float:
    value = float(text.replace("INF", "inf"))
    if math.isnan(value) and text != "NaN":
        raise ValueError(text)
    return value


def _to_datetime(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _to_date(text: str) -> dt.date:
    return dt.date.fromisoformat(text[:10])


def _to_year(text: str) -> int:
    return int(text[:-1] if text.endswith("Z") else text.split("+")[0])


_INTEGER_TYPES = [
    "integer",
    "int",
    "long",
    "short",
    "byte",
    "nonNegativeInteger",
    "positiveInteger",
    "nonPositiveInteger",
    "negativeInteger",
    "unsignedLong",
    "unsignedInt",
    "unsignedShort",
    "unsignedByte",
]
_CONVERTERS: dict[str, Callable[[str], LiteralValue]] = {
    **{XSD + name: int for name in _INTEGER_TYPES},
    XSD + "decimal": float,
    XSD + "double": _to_float,
    XSD + "float": _to_float,
    XSD + "boolean": _to_bool,
    XSD + "date": _to_date,
    XSD + "dateTime": _to_datetime,
    XSD + "dateTimeStamp": _to_datetime,
    XSD + "gYear": _to_year,
}


def literal_value(literal: Literal) -> LiteralValue:
    """The Python value of `literal`, so generated code can compare it.

    Numbers become int or float, booleans bool, xsd:date a `date`,
    xsd:dateTime a `datetime`, xsd:gYear an int year. Strings, language-tagged
    strings, unknown datatypes and malformed lexical forms ("abc"^^xsd:integer)
    keep their lexical form as a str: a documented fallback, never an error.
    """
    convert = _CONVERTERS.get(literal.datatype.value)
    if convert is None:
        return literal.value
    try:
        return convert(literal.value.strip())
    except ValueError:
        return literal.value


def local_name(node: NamedNode | BlankNode) -> str:
    """The readable tail of an IRI: after the last `#`, `/` or `:`,
    percent-decoded (`.../entity/Q90` -> `Q90`, `urn:x:Dino%20Verde` ->
    `Dino Verde`). Blank nodes give their identifier."""
    if isinstance(node, BlankNode):
        return node.value
    iri = node.value
    tail = iri[max(iri.rfind("#"), iri.rfind("/"), iri.rfind(":")) + 1 :]
    return unquote(tail) or iri


def is_node(term: object) -> bool:
    """True for IRIs and blank nodes, the terms a subgraph can expand from."""
    return isinstance(term, NamedNode | BlankNode)


def spelled_iri(text: str) -> str | None:
    """The IRI `text` spells (bare or in `<>`), or None when it names no IRI."""
    text = text.strip()
    iri = text[1:-1] if text.startswith("<") and text.endswith(">") else text
    return iri if "://" in iri or iri.startswith("urn:") else None


def named_node(iri: str) -> NamedNode | None:
    """The IRI as a node, or None when it is not a valid IRI."""
    try:
        return NamedNode(iri)
    except ValueError:
        return None
