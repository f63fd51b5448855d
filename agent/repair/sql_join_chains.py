"""A join key or column several joins away, reached through the foreign keys between.

Small models join on a key as if the table at hand held it:
`Medal AS T1 JOIN Athlete AS T2 ON T1.athlete_id = T2.athlete_id`, where a
medal reaches its athlete only through Format and Tournament (TempTabQA-C
fails on this in most questions). When the foreign keys leading away from
the table at hand, each from the table that holds it to the one it refers
to, reach a table with that column by one shortest chain, the repair joins
the chain's tables in before the failing join and takes the column from
the last of them. A column read from a table that lacks it
(`PersonalInformation AS T1 ... WHERE T1.name = 'Ann'`, the name being
the Athlete's) is reached the same way, the chain joined right after the
table. Following keys only that way, every row meets at most
one row of the next table, so the joins add no rows.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from sqlglot import exp

from agent.repair import Repair
from agent.repair.names import folded
from plugins import Box
from plugins.foreign_key_links import Link, links_by_start

MAX_JOINS = 4


def join_through_keys(
    tree: exp.Expression,
    dialect: str,
    by_name: dict[str, Box],
    own: tuple[str, str],
    holder: str,
    name: str,
) -> Repair | None:
    """`tree` with the tables of the one shortest foreign-key chain from
    `own` (alias, table) to a table with column `name` joined in before the
    inner join of `holder` whose condition compares `own`'s alias `.name`
    with `holder.name`, that condition then reading the column from the
    chain's last table. None when no single chain, or no such join before
    which to put it, exists."""
    alias, table = own
    chain = _one_shortest_chain(table, lambda box: _has_column(box, name), by_name)
    join = _join_comparing(tree, (alias, name), (holder, name))
    if chain is None or join is None or not isinstance(join.parent, exp.Select):
        return None
    added, last = _chain_joins(tree, alias, chain)
    for column in join.args["on"].find_all(exp.Column):
        if column.table == alias and column.name == name:
            column.set("table", exp.to_identifier(last))
    select = join.parent
    joins = select.args["joins"]
    position = next(index for index, found in enumerate(joins) if found is join)
    select.set("joins", [*joins[:position], *added, *joins[position:]])
    change = f"join key {alias}.{name} reached through {_through(table, chain)}"
    return Repair(tree.sql(dialect=dialect), (change,))


def join_for_column(
    tree: exp.Expression,
    dialect: str,
    by_name: dict[str, Box],
    own: tuple[str, str],
    name: str,
    owner: tuple[str, str] | None = None,
) -> Repair | None:
    """`tree` with the tables of the one shortest foreign-key chain from
    `own` (alias, table) to a table with column `name` joined in right after
    `own`, and every `alias.name` read from the chain's last table
    (`PersonalInformation AS T1 ... WHERE T1.name = 'Ann'`, the name being
    the Athlete's that T1.athlete_id refers to). `owner` (table, column)
    says which table's column `name` stands for when it is not its own name
    (`medal_type` for Medal's `type`). None when no single chain exists, or
    `own` is not a table of one SELECT's FROM or inner joins."""
    alias, table = own
    wanted_table, wanted_column = owner or (None, name)

    def holds(box: Box) -> bool:
        return wanted_table in (None, box.name) and _has_column(box, wanted_column)

    chain = _one_shortest_chain(table, holds, by_name)
    place = _table_place(tree, alias)
    if chain is None or place is None:
        return None
    select, position = place
    added, last = _chain_joins(tree, alias, chain)
    for column in tree.find_all(exp.Column):
        if column.table == alias and folded(column.name) == folded(name):
            column.set("table", exp.to_identifier(last))
            column.set("this", exp.to_identifier(wanted_column))
    joins = select.args.get("joins") or []
    select.set("joins", [*joins[:position], *added, *joins[position:]])
    change = f"column {alias}.{name} reached through {_through(table, chain)}"
    return Repair(tree.sql(dialect=dialect), (change,))


def _table_place(tree: exp.Expression, alias: str) -> tuple[exp.Select, int] | None:
    """The SELECT whose FROM or inner join reads the table called `alias`,
    and where in its joins the joins after that table go; None when no one
    SELECT reads it so."""
    places = []
    for select in tree.find_all(exp.Select):
        source = select.args.get("from_")
        if source is not None and source.this.alias_or_name == alias:
            places.append((select, 0))
        for index, join in enumerate(select.args.get("joins") or []):
            inner = not join.side and join.kind in ("", "INNER")
            if inner and join.this.alias_or_name == alias:
                places.append((select, index + 1))
    return places[0] if len(places) == 1 else None


def _chain_joins(tree: exp.Expression, alias: str, chain: list[Link]) -> tuple[list[exp.Join], str]:
    """The inner joins that follow `chain` from the table called `alias`,
    each table under a fresh alias unless the query already joins it so
    (an earlier repair may have), and the alias of the last."""
    taken = {found.alias_or_name for found in tree.find_all(exp.Table)}
    added, previous = [], alias
    for link in chain:
        joined_already = _joined_by(tree, previous, link)
        if joined_already is not None:
            previous = joined_already
            continue
        step = _free_alias(taken)
        taken.add(step)
        condition = exp.EQ(
            this=exp.column(link.from_field, table=previous),
            expression=exp.column(link.to_field, table=step),
        )
        joined = exp.alias_(exp.to_table(link.to_box), step, table=True)
        added.append(exp.Join(this=joined, on=condition))
        previous = step
    return added, previous


def _joined_by(tree: exp.Expression, alias: str, link: Link) -> str | None:
    """The alias under which the query joins `link`'s target table on
    `alias.from_field = target.to_field`, if it does."""
    for join in tree.find_all(exp.Join):
        condition = join.args.get("on")
        if condition is None or not isinstance(join.this, exp.Table):
            continue
        target = join.this.alias_or_name
        if join.this.name.casefold() != link.to_box.casefold():
            continue
        wanted = {(alias, link.from_field), (target, link.to_field)}
        if wanted in column_equalities(condition):
            return target
    return None


def _has_column(box: Box, name: str) -> bool:
    """Whether `box` has a column called `name`, compared loosely (`folded`)."""
    return folded(name) in {folded(str(column)) for column in box.frame.columns}


def _through(table: str, chain: list[Link]) -> str:
    return " -> ".join([table, *(link.to_box for link in chain)])


def _one_shortest_chain(
    start: str, holds: Callable[[Box], bool], by_name: dict[str, Box]
) -> list[Link] | None:
    """The foreign keys, followed from the table that holds each, from table
    `start` to the nearest table that `holds` the column sought; None when
    there is no such table within MAX_JOINS, or two chains of that length
    reach one."""
    keys = (
        Link(box.name, key.field, key.ref_box, key.ref_field)
        for box in by_name.values()
        for key in box.foreign_keys
    )
    links = links_by_start(keys, set(by_name), both_directions=False)
    queue: deque[list[Link]] = deque([[]])
    found: list[list[Link]] = []
    while queue:
        chain = queue.popleft()
        if found and len(chain) > len(found[0]):
            break
        at = chain[-1].to_box if chain else start
        if chain and holds(by_name[at]):
            found.append(chain)
            continue
        if len(chain) < MAX_JOINS:
            visited = {start, *(link.to_box for link in chain)}
            queue.extend([*chain, link] for link in links.get(at, []) if link.to_box not in visited)
    return found[0] if len(found) == 1 else None


def column_equalities(tree: exp.Expression) -> list[set[tuple[str, str]]]:
    """The (alias, name) pairs of every equality between two columns in `tree`."""
    return [
        {(side.table, side.name) for side in (equality.left, equality.right)}
        for equality in tree.find_all(exp.EQ)
        if isinstance(equality.left, exp.Column) and isinstance(equality.right, exp.Column)
    ]


def _join_comparing(
    tree: exp.Expression, left: tuple[str, str], right: tuple[str, str]
) -> exp.Join | None:
    """The inner join of `right`'s alias whose condition compares columns
    `left` and `right` (each (alias, name)) for equality."""
    for join in tree.find_all(exp.Join):
        inner = not join.side and join.kind in ("", "INNER")
        condition = join.args.get("on")
        if not inner or condition is None or join.this.alias_or_name != right[0]:
            continue
        if {left, right} in column_equalities(condition):
            return join
    return None


def _free_alias(taken: set[str]) -> str:
    """The first of J1, J2, ... no table of the query is called."""
    number = 1
    while f"J{number}" in taken:
        number += 1
    return f"J{number}"
