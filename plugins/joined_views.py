"""Joined views: a chain of many-to-one foreign keys offered pre-joined.

Small models join a table straight to one it reaches only through others
(`Medal` to `Athlete` on an `athlete_id` that Medal lacks, when medals reach
athletes through Format and Tournament). A view that has done the joins
lets them filter and group one table instead.

The rules (docs/plugins.md, "Joined views"):

- A chain starts at a fact table, one no other table refers to, and follows
  foreign keys that each name the whole one-column primary key of the table
  they refer to (many-to-one, so the view has one row per fact row), never
  the same table twice, 2 to MAX_VIEW_JOINS joins, as far as it goes.
- A view holds every column of its tables except those that serve only the
  join: each key column of a link and the primary keys of the joined
  tables. The fact table's own primary key stays.
- A column keeps its name unless another table of the chain has one of the
  same name or the name is generic (GENERIC_NAMES); then it is
  `<table>_<column>`, the table's name in snake case (`athlete_name`,
  `medal_type`).
- A view is named `<fact table>_details` in snake case, or
  `<fact table>_<last table>_details` when its fact table starts several.
- No views for a schema of more than MAX_BASE_TABLES tables, at most
  MAX_VIEWS per database, and none whose name a table already has.

Views join with LEFT JOIN: a fact row whose key is missing stays, with empty
fields for the tables it does not reach.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from plugins.foreign_key_links import Link, links_by_start
from plugins.names import make_identifier

if TYPE_CHECKING:
    from plugins.loaders.database_schema import Database

MAX_VIEW_JOINS = 4
MAX_VIEWS = 3
MAX_BASE_TABLES = 8
GENERIC_NAMES = frozenset(
    {"name", "type", "title", "description", "code", "value", "status", "kind", "label", "id"}
)


@dataclass(frozen=True)
class TableShape:
    """What joined views need to know of a table: its columns, its primary
    key and its foreign keys (as links from it)."""

    name: str
    columns: tuple[str, ...]
    primary_key: tuple[str, ...]
    references: tuple[Link, ...]


@dataclass(frozen=True)
class ViewColumn:
    """A column of a joined view: its name there, and the table column it shows."""

    name: str
    table: str
    column: str


@dataclass(frozen=True)
class JoinedView:
    """A view of a fact table joined along `chain` to the tables it refers to."""

    name: str
    chain: tuple[Link, ...]
    columns: tuple[ViewColumn, ...]

    @property
    def fact_table(self) -> str:
        """The table the view has one row per row of."""
        return self.chain[0].from_box

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables of the chain, the fact table first."""
        return (self.fact_table, *(link.to_box for link in self.chain))

    def renamed(self, names: dict[str, str]) -> JoinedView:
        """The same view with its tables called by `names` (BOX names)."""
        chain = tuple(
            Link(names[link.from_box], link.from_field, names[link.to_box], link.to_field)
            for link in self.chain
        )
        columns = tuple(
            ViewColumn(column.name, names[column.table], column.column) for column in self.columns
        )
        return JoinedView(self.name, chain, columns)

    def description(self) -> str:
        """One line saying what the view is, for the schema text."""
        fact, *joined = self.tables
        return (
            f"{self.name} is {fact} joined with {', '.join(joined[:-1])} and {joined[-1]} "
            f"(one row per {fact} row)"
        )


def snake_case(name: str) -> str:
    """`PersonalInformation` -> `personal_information`, as an identifier."""
    return make_identifier(re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower(), "table")


def database_joined_views(database: Database) -> list[JoinedView]:
    """The joined views of a database's declared keys, in its table names."""
    return find_joined_views(
        [
            TableShape(
                table.name,
                tuple(column.name for column in table.columns),
                tuple(column.name for column in table.columns if column.primary_key),
                tuple(
                    Link(table.name, key.column, key.ref_table, key.ref_column)
                    for key in table.foreign_keys
                ),
            )
            for table in database.tables
        ]
    )


def find_joined_views(tables: Sequence[TableShape]) -> list[JoinedView]:
    """The joined views of a schema of `tables` (see the module's rules)."""
    if len(tables) > MAX_BASE_TABLES:
        return []
    by_name = {table.name: table for table in tables}
    usable = links_by_start(
        (link for table in tables for link in _many_to_one(table, by_name)),
        set(by_name),
        both_directions=False,
    )
    referenced = {
        link.to_box for table in tables for link in table.references if link.to_box != table.name
    }
    chains = [
        (table.name, chain)
        for table in tables
        if table.name not in referenced
        for chain in _longest_chains(table.name, usable)
        if len(chain) >= 2
    ]
    taken = {table.name.casefold() for table in tables}
    views = []
    for fact, chain in chains:
        several = sum(1 for other, _ in chains if other == fact) > 1
        ending = f"_{snake_case(chain[-1].to_box)}" if several else ""
        name = f"{snake_case(fact)}{ending}_details"
        if name.casefold() in taken:
            continue
        taken.add(name.casefold())
        views.append(JoinedView(name, tuple(chain), _view_columns(chain, by_name)))
        if len(views) == MAX_VIEWS:
            break
    return views


def _many_to_one(table: TableShape, by_name: dict[str, TableShape]) -> list[Link]:
    """The links of `table` that name the whole one-column primary key of the
    table they refer to, one per referred table (two keys to one table leave
    the join ambiguous)."""
    targets = [link.to_box for link in table.references]
    return [
        link
        for link in table.references
        if targets.count(link.to_box) == 1
        and link.to_box in by_name
        and by_name[link.to_box].primary_key == (link.to_field,)
    ]


def _longest_chains(start: str, links: dict[str, list[Link]]) -> list[list[Link]]:
    """Every chain from `start` that cannot be made longer (or has
    MAX_VIEW_JOINS links), visiting no table twice."""
    finished: list[list[Link]] = []

    def extend(chain: list[Link], visited: set[str]) -> None:
        here = chain[-1].to_box if chain else start
        onward = [link for link in links.get(here, []) if link.to_box not in visited]
        if not onward or len(chain) == MAX_VIEW_JOINS:
            finished.append(chain)
            return
        for link in onward:
            extend([*chain, link], visited | {link.to_box})

    extend([], {start})
    return finished


def _view_columns(chain: list[Link], by_name: dict[str, TableShape]) -> tuple[ViewColumn, ...]:
    fact = by_name[chain[0].from_box]
    join_columns = {(link.from_box, link.from_field) for link in chain}
    join_columns |= {(link.to_box, link.to_field) for link in chain}
    kept: list[tuple[str, str]] = []
    for table_name in (fact.name, *(link.to_box for link in chain)):
        table = by_name[table_name]
        for column in table.columns:
            own_key = table is fact and column in fact.primary_key
            joined_key = table is not fact and column in table.primary_key
            if own_key or ((table.name, column) not in join_columns and not joined_key):
                kept.append((table.name, column))
    counts: dict[str, int] = {}
    for _, column in kept:
        counts[column.casefold()] = counts.get(column.casefold(), 0) + 1
    columns: list[ViewColumn] = []
    used: set[str] = set()
    for table, column in kept:
        plain = counts[column.casefold()] == 1 and column.casefold() not in GENERIC_NAMES
        name = column if plain else f"{snake_case(table)}_{column}"
        name = _unused(name, used)
        used.add(name.casefold())
        columns.append(ViewColumn(name, table, column))
    return tuple(columns)


def _unused(name: str, used: set[str]) -> str:
    """`name`, or `name_2`, `name_3`... when it is taken."""
    candidate, number = name, 1
    while candidate.casefold() in used:
        number += 1
        candidate = f"{name}_{number}"
    return candidate


def view_select(view: JoinedView, quote: Callable[[str], str]) -> str:
    """The SELECT that computes `view`, every name quoted by `quote`."""
    selected = ",\n".join(
        f"\t{quote(column.table)}.{quote(column.column)} AS {quote(column.name)}"
        for column in view.columns
    )
    joins = "".join(
        f"\nLEFT JOIN {quote(link.to_box)} ON "
        f"{quote(link.from_box)}.{quote(link.from_field)} = "
        f"{quote(link.to_box)}.{quote(link.to_field)}"
        for link in view.chain
    )
    return f"SELECT\n{selected}\nFROM {quote(view.fact_table)}{joins}"
