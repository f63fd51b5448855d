"""The tools' input fields, described for the LLM that fills them in.

Tools take these as annotated parameters; the SDK builds one pydantic model
per tool from them, which is the tool's input schema.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, JsonValue

SourceName = Annotated[
    str, Field(min_length=1, description="A source name as list_sources gives it, e.g. 'music'.")
]
SourceNames = Annotated[
    list[str] | None,
    Field(
        description=(
            "Names of the sources the code runs on (see list_sources). Default: every "
            "loaded table and database (run_networkx: every knowledge graph)."
        ),
    ),
]
Representation = Annotated[
    str,
    Field(
        description=(
            "How to show the schema: 'pandas' (BOXes as DataFrames), 'sql' (DDL, tables "
            "and databases only) or 'networkx' (a knowledge graph's subgraph as code)."
        ),
    ),
]
Entities = Annotated[
    list[str],
    Field(
        description=(
            "Knowledge graphs only: topic entities (label, local name or IRI) whose "
            "neighbourhood to show, e.g. ['Alfred Hitchcock']."
        ),
    ),
]
Hops = Annotated[
    int, Field(ge=0, le=4, description="Knowledge graphs only: radius of the subgraph.")
]
FocusQuestion = Annotated[
    str | None,
    Field(
        description=(
            "Knowledge graphs only: a question whose topic entities are found for you "
            "when `entities` is empty."
        ),
    ),
]
Code = Annotated[str, Field(min_length=1, max_length=100_000)]
Question = Annotated[str, Field(min_length=1, max_length=4_000, description="The question.")]
ExpectedAnswer = Annotated[
    list[list[JsonValue]] | None,
    Field(
        description=(
            "The answer the code must return, as rows (e.g. [[3]]); when given, the "
            "demonstration is stored only if the code returns it (verified 'gold')."
        ),
    ),
]
