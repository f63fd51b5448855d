"""Joined views: chains of many-to-one foreign keys offered pre-joined.

Small models join a table straight to one it reaches only through others
(`Medal` to `Athlete` on an `athlete_id` that Medal lacks, when medals reach
athletes through Format and Tournament). A view that has done the joins
lets them filter and group one table instead.

The rules (docs/plugins.md, "Joined views"):

- A view starts at a fact table, one no other table refers to, and follows
  foreign keys that each name the whole one-column primary key of the table
  they refer to (many-to-one, so the view has one row per fact row). Its
  chains are followed depth first in the order the keys are declared, each
  table once, at most MAX_VIEW_JOINS joins in all, skipping a join that
  would take the view past MAX_VIEW_COLUMNS columns. The chains of one fact
  table share its view; there is a view only when one of them has two joins
  or more.
- A table whose one-column primary key is also its foreign key to another
  table's primary key extends that table (one row at most per row of it:
  `PersonalInformation` of an `Athlete`). A view that reaches the extended
  table joins the extension too, as if the key pointed the other way; an
  extension is never a fact table itself.
- A view holds every column of its tables except those that serve only the
  join: each key column of a link and the primary keys of the joined
  tables. The fact table's own primary key stays.
- A column keeps its name unless another table of the view has one of the
  same name or the name is generic (GENERIC_NAMES); then it is
  `<table>_<column>`, the table's name in snake case (`athlete_name`,
  `medal_type`).
- A view is named `<fact table>_details` in snake case (`medal_details`).
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
MAX_VIEW_COLUMNS = 24
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
    """A view of a fact table joined to the tables it refers to: `links` are
    the joins in order, each from a table joined before."""

    name: str
    links: tuple[Link, ...]
    columns: tuple[ViewColumn, ...]

    @property
    def fact_table(self) -> str:
        """The table the view has one row per row of."""
        return self.links[0].from_box

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables of the view, the fact table first."""
        return (self.fact_table, *(link.to_box for link in self.links))

    def renamed(self, names: dict[str, str]) -> JoinedView:
        """The same view with its tables called by `names` (BOX names)."""
        links = tuple(
            Link(names[link.from_box], link.from_field, names[link.to_box], link.to_field)
            for link in self.links
        )
        columns = tuple(
            ViewColumn(column.name, names[column.table], column.column) for column in self.columns
        )
        return JoinedView(self.name, links, columns)

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
    extensions = [link for table in tables for link in _extension_of(table, by_name)]
    usable = links_by_start(
        [
            *(link for table in tables for link in _many_to_one(table, by_name)),
            *(link.reversed() for link in extensions),
        ],
        set(by_name),
        both_directions=False,
    )
    extending = {link.from_box for link in extensions}
    referenced = {
        link.to_box for table in tables for link in table.references if link.to_box != table.name
    }
    taken = {table.name.casefold() for table in tables}
    views = []
    for table in tables:
        if table.name in referenced or table.name in extending:
            continue
        links = _joins_from(table.name, usable, by_name)
        name = f"{snake_case(table.name)}_details"
        if links is None or name.casefold() in taken:
            continue
        taken.add(name.casefold())
        views.append(JoinedView(name, tuple(links), _view_columns(table.name, links, by_name)))
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


def _extension_of(table: TableShape, by_name: dict[str, TableShape]) -> list[Link]:
    """The link by which `table` extends another table: its one-column
    primary key is a foreign key to that table's one-column primary key."""
    return [
        link
        for link in _many_to_one(table, by_name)
        if table.primary_key == (link.from_field,) and link.to_box != table.name
    ]


def _joins_from(
    fact: str, usable: dict[str, list[Link]], by_name: dict[str, TableShape]
) -> list[Link] | None:
    """The joins of `fact`'s view: its chains depth first, in the order the
    keys are declared, each table once, at most MAX_VIEW_JOINS joins, a
    join skipped when it would take the view past MAX_VIEW_COLUMNS; None
    when no chain of two joins is left."""
    links: list[Link] = []
    depth = {fact: 0}

    def extend(table: str) -> None:
        for link in usable.get(table, []):
            if link.to_box in depth or len(links) == MAX_VIEW_JOINS:
                continue
            if len(_view_columns(fact, [*links, link], by_name)) > MAX_VIEW_COLUMNS:
                continue
            links.append(link)
            depth[link.to_box] = depth[table] + 1
            extend(link.to_box)

    extend(fact)
    return links if max(depth.values()) >= 2 else None


def _view_columns(
    fact_name: str, links: list[Link], by_name: dict[str, TableShape]
) -> tuple[ViewColumn, ...]:
    fact = by_name[fact_name]
    join_columns = {(link.from_box, link.from_field) for link in links}
    join_columns |= {(link.to_box, link.to_field) for link in links}
    kept: list[tuple[str, str]] = []
    for table_name in (fact.name, *(link.to_box for link in links)):
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
        for link in view.links
    )
    return f"SELECT\n{selected}\nFROM {quote(view.fact_table)}{joins}"
