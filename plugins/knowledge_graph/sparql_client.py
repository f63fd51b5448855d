"""A minimal SPARQL 1.1 protocol client: POSTed queries, JSON results.

Only the standard library: one HTTP request per query, a timeout on every
request, and a one-line `BadInputError` naming the endpoint when it times
out, is unreachable, or answers an error or something that is not SPARQL
JSON results.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from pyoxigraph import BlankNode, Literal, NamedNode

from plugins.errors import BadInputError
from plugins.knowledge_graph.graph import Term

_BLANK_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


class SparqlClient:
    """Sends SELECT and ASK queries to one endpoint URL."""

    def __init__(self, url: str, timeout_seconds: float):
        """`url` is the plain http(s) endpoint URL (no `sparql+` prefix)."""
        self.url = url
        self.timeout_seconds = timeout_seconds

    def select(self, query: str) -> list[dict[str, Term]]:
        """The solutions of a SELECT query, as pyoxigraph terms by variable."""
        payload = self._post(query)
        try:
            bindings = payload["results"]["bindings"]
            return [{name: _term(value) for name, value in row.items()} for row in bindings]
        except (KeyError, TypeError, ValueError) as error:
            raise BadInputError(f"{self.url}: not SPARQL JSON results ({error})") from error

    def ask(self, query: str) -> bool:
        """The boolean answer of an ASK query."""
        payload = self._post(query)
        if not isinstance(payload.get("boolean"), bool):
            raise BadInputError(f"{self.url}: not a SPARQL ASK result")
        return payload["boolean"]

    def _post(self, query: str) -> dict[str, Any]:
        request = urllib.request.Request(
            self.url,
            data=urllib.parse.urlencode({"query": query}).encode(),
            headers={
                "Accept": "application/sparql-results+json",
                "Content-Type": "application/x-www-form-urlencoded",
                "User-Agent": "pandora-skr",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_seconds) as response:
                body = response.read()
        except urllib.error.HTTPError as error:
            detail = " ".join(error.read(300).decode("utf-8", "replace").split())
            raise BadInputError(
                f"{self.url}: SPARQL endpoint answered HTTP {error.code}: {detail or error.reason}"
            ) from error
        except TimeoutError as error:
            raise BadInputError(
                f"{self.url}: SPARQL endpoint did not answer within {self.timeout_seconds:g} s"
            ) from error
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                raise BadInputError(
                    f"{self.url}: SPARQL endpoint did not answer within {self.timeout_seconds:g} s"
                ) from error
            raise BadInputError(f"{self.url}: cannot reach SPARQL endpoint: {reason}") from error
        try:
            payload = json.loads(body)
        except ValueError as error:
            raise BadInputError(f"{self.url}: answer is not SPARQL JSON results") from error
        if not isinstance(payload, dict):
            raise BadInputError(f"{self.url}: answer is not SPARQL JSON results")
        return payload


def _term(value: dict[str, str]) -> Term:
    kind, text = value["type"], value["value"]
    if kind == "uri":
        return NamedNode(text)
    if kind == "bnode":
        valid = _BLANK_ID.fullmatch(text)
        return BlankNode(text if valid else hashlib.sha1(text.encode()).hexdigest()[:16])
    if kind in ("literal", "typed-literal"):
        if "xml:lang" in value:
            return Literal(text, language=value["xml:lang"])
        if "datatype" in value:
            return Literal(text, datatype=NamedNode(value["datatype"]))
        return Literal(text)
    raise ValueError(f"unknown term type {kind!r}")
