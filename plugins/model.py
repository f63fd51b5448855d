"""The data model shared by every plugin: sources, BOXes and their fields.

Names here are contracts (see DESIGN.md, "Data model"): the CLI, the MCP server,
the memory and third-party plugins all read them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import pandas as pd

SourceKind = Literal["table", "database", "kg"]
SOURCE_KINDS: tuple[SourceKind, ...] = ("table", "database", "kg")


@dataclass
class Source:
    """One loaded structured source.

    `handle` is the raw data as its loader keeps it: a dict of DataFrames for
    flat tables, a `Database` for relational databases, a knowledge graph
    object for KGs. `plugin` names the loader that opened it.
    """

    name: str
    kind: SourceKind
    plugin: str
    location: str
    handle: Any


@dataclass(frozen=True)
class Field:
    """One column of a BOX and its pandas dtype name."""

    name: str
    dtype: str


@dataclass(frozen=True)
class ForeignKey:
    """`field` of this BOX refers to `ref_field` of BOX `ref_box`."""

    field: str
    ref_box: str
    ref_field: str


@dataclass
class Box:
    """A table, a database table or a KG type as one pandas DataFrame."""

    name: str
    frame: pd.DataFrame
    origin: str
    foreign_keys: list[ForeignKey] = field(default_factory=list)

    @property
    def fields(self) -> list[Field]:
        """The columns of the frame, in order, with their dtypes."""
        return [Field(str(column), str(dtype)) for column, dtype in self.frame.dtypes.items()]


@dataclass(frozen=True)
class Focus:
    """The part of a large source one question is about.

    Knowledge graphs are shown to the LLM as the subgraph around the
    question's topic `entities` (found from `question` when not given), up to
    `hops` hops away. Tables and databases ignore it.
    """

    question: str | None = None
    entities: tuple[str, ...] = ()
    hops: int = 2


@dataclass(frozen=True)
class SchemaItem:
    """One BOX or table as schema linking sees it: its name, its field names
    and the names of the items its foreign keys refer to."""

    name: str
    fields: tuple[str, ...]
    references: tuple[str, ...]
    joins: tuple[str, ...] = ()
    """The tables a joined view is made of (`plugins.joined_views`); empty
    for a table or BOX of the data itself."""
    loses_no_row: Callable[[], bool] = field(default=lambda: False, compare=False, repr=False)
    """For a joined view: called, whether every row of every table it joins
    is in it (no athlete without medals, no artist without a track sold),
    checked on the data only when asked, since that costs queries; False
    when that is not so or cannot be checked."""

    def description(self) -> str:
        """Words describing the item, for the embedding."""
        return " ".join([self.name, *self.fields]).replace("_", " ")


@dataclass(frozen=True)
class Vocabulary:
    """Where execution feedback looks names and values up: BOXes (their
    names, fields and values) and plain names (graph nodes, relations)."""

    boxes: list[Box] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
