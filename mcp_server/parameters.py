"""The tools' input fields, described for the LLM that fills them in.

Tools take these as annotated parameters; the SDK builds one pydantic model
per tool from them, which is the tool's input schema.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field, JsonValue


def one_or_more(value: Any) -> Any:
    """A lone string where a list of names is expected is read as a one-item
    list (`"sources": "music"`); the schema still says array."""
    return [value] if isinstance(value, str) else value


def registered_representations() -> list[str]:
    """The names of the representations the plugins register, sorted."""
    from plugins import get_registry

    return sorted(get_registry().representations)


def known_representation(name: str) -> str:
    """`name` when a plugin registers it; else an error naming the known ones."""
    known = registered_representations()
    if name not in known:
        raise ValueError(f"unknown representation {name!r}; use one of: {', '.join(known)}")
    return name


def source_names(default: str) -> Any:
    """The `sources` parameter of a tool whose default is `default`."""
    return Annotated[
        list[str] | None,
        BeforeValidator(one_or_more),
        Field(
            description=f"Names of sources from list_sources, e.g. ['music']. Default: {default}."
        ),
    ]


SourceName = Annotated[
    str, Field(min_length=1, description="A source name as list_sources gives it, e.g. 'music'.")
]
SourceNames = Annotated[
    list[str] | None,
    BeforeValidator(one_or_more),
    Field(description="Names of sources from list_sources, e.g. ['music']."),
]
TableSourceNames = source_names("every loaded table and database")
GraphSourceNames = source_names("every loaded knowledge graph")
SqlSourceNames = source_names("the one loaded database, else every loaded table, queried together")
Representation = Annotated[
    str,
    AfterValidator(known_representation),
    Field(
        description=(
            "How to show the schema or write the code: 'pandas' (BOXes as DataFrames), 'sql' "
            "(DDL; a knowledge graph as its question's BOXes) or 'networkx' (a knowledge "
            "graph's subgraph)."
        ),
    ),
]
Entities = Annotated[
    list[str],
    BeforeValidator(one_or_more),
    Field(
        description=(
            "Knowledge graphs only: topic entities (label, local name or IRI) whose "
            "neighbourhood to show, e.g. ['Alfred Hitchcock']."
        ),
    ),
]
PreviewRows = Annotated[int, Field(ge=1, le=50, description="How many first rows to show.")]
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
SessionName = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$",
        description=(
            "A name of your choosing for a conversation: the question is asked with the last "
            "questions and programs of that session (for follow-ups like 'and for 2019?') and "
            "is added to it. Letters, digits, '-' and '_'."
        ),
    ),
]
ExpectedAnswer = Annotated[
    list[list[JsonValue]] | None,
    Field(
        description=(
            "The answer the code must return, as rows (e.g. [[3]]); when given, the "
            "demonstration is stored only if the code returns it (verified 'gold')."
        ),
    ),
]
