"""Repairing an unknown table or column in a SQL query with sqlglot."""

from __future__ import annotations

import re

import sqlglot
from sqlglot import exp

from agent.repair import Repair
from agent.repair.names import folded, nearest_name
from agent.repair.sql_join_chains import column_equalities, join_for_column, join_through_keys
from agent.repair.sql_quoting import quote_bare_names
from plugins import Box

MISSING_PATTERNS = (
    ("column", re.compile(r"no such column: ([\w.]+)", re.IGNORECASE)),
    ("table", re.compile(r"no such table: ([\w.]+)", re.IGNORECASE)),
    ("column", re.compile(r'Referenced column "([^"]+)" not found')),
    ("table", re.compile(r"Table with name ([\w.]+) does not exist")),
    ("column", re.compile(r'column "?([\w.]+)"? does not exist')),
    ("table", re.compile(r'relation "?([\w.]+)"? does not exist')),
)


def repair_sql(code: str, message: str, boxes: list[Box], dialect: str) -> Repair | None:
    """`code` with names the schema has written bare put in quotes, else with
    the table or column `message` names replaced by the one nearest of the
    schema, or None when that is not clear."""
    quoted_code, quoted = quote_bare_names(code, boxes)
    if quoted:
        return Repair(quoted_code, tuple(f"quoted {name}" for name in quoted))
    missing = _missing(message)
    if missing is None:
        return None
    kind, qualifier, name = missing
    try:
        tree = sqlglot.parse_one(code, read=dialect)
    except sqlglot.errors.SqlglotError:
        return None
    by_name = {box.name: box for box in boxes}
    if kind == "table":
        replacement = nearest_name(name, by_name)
        if replacement is None:
            return _drop_unused_join(tree, dialect, name)
        for table in tree.find_all(exp.Table):
            if table.name == name:
                table.set("this", exp.to_identifier(replacement))
        return Repair(tree.sql(dialect=dialect), (f"table {name} -> {replacement}",))
    return _repair_column(tree, dialect, qualifier, name, by_name)


def _drop_unused_join(tree: exp.Expression, dialect: str, name: str) -> Repair | None:
    """The query without its join of the unknown table `name`, when nothing
    but that join's own ON clause reads the table (small models join a
    table they imagine, `JOIN genre ON album.genre_id = genre.genre_id`,
    and then never use it)."""
    joins = [
        join
        for join in tree.find_all(exp.Join)
        if isinstance(join.this, exp.Table) and join.this.name == name
    ]
    if len(joins) != 1:
        return None
    join = joins[0]
    alias = join.this.alias_or_name
    inside = {id(column) for column in join.find_all(exp.Column)}
    used = [
        column
        for column in tree.find_all(exp.Column)
        if id(column) not in inside and column.table in (alias, name)
    ]
    if used:
        return None
    join.pop()
    return Repair(tree.sql(dialect=dialect), (f"join of unknown table {name} dropped",))


def _repair_column(
    tree: exp.Expression, dialect: str, qualifier: str | None, name: str, by_name: dict[str, Box]
) -> Repair | None:
    aliases = _table_aliases(tree, by_name)
    read = [by_name[table] for table in aliases.values() if table in by_name]
    others = [box for box in by_name.values() if box not in read]
    qualified = qualifier is not None and aliases.get(qualifier) in by_name
    if qualified:
        assert qualifier is not None
        holders = [
            alias
            for alias, table in aliases.items()
            if table in by_name and name in _fields(by_name[table]) and alias != qualifier
        ]
        if len(holders) == 1:
            (holder,) = holders
            if _compared(tree, (qualifier, name), (holder, name)):
                return _repair_join_key(tree, dialect, aliases, by_name, qualifier, holder, name)
        keyed = _join_on_declared_key(tree, dialect, aliases, by_name, qualifier, name)
        if keyed is not None:
            return keyed
        if len(holders) == 1:
            return _rewrite(tree, dialect, qualifier, name, holders[0], name)
    owner = _table_column_named(name, by_name) if qualified else None
    if owner is not None:
        assert qualifier is not None
        return _read_from_owner(tree, dialect, aliases, by_name, qualifier, name, owner)
    if any(folded(name) in map(folded, _fields(box)) for box in others):
        if qualified:  # the field is in a table the query does not read: a join is missing
            assert qualifier is not None
            return join_for_column(tree, dialect, by_name, (qualifier, aliases[qualifier]), name)
        return None
    if qualified:
        assert qualifier is not None
        replacement = nearest_name(name, _fields(by_name[aliases[qualifier]]))
        return _rewrite(tree, dialect, qualifier, name, qualifier, replacement)
    fields = [field for box in read or list(by_name.values()) for field in _fields(box)]
    return _rewrite(tree, dialect, qualifier, name, qualifier, nearest_name(name, fields))


def _table_column_named(name: str, by_name: dict[str, Box]) -> tuple[str, str] | None:
    """The one (table, column) that `name` spells as `<table>_<column>`
    (`medal_type`: Medal's `type`), the way joined views name a column
    whose own name is generic (`plugins.joined_views`); None when no table,
    or several, fit."""
    fits = [
        (box.name, field)
        for box in by_name.values()
        for field in _fields(box)
        if folded(box.name + field) == folded(name) and folded(field) != folded(name)
    ]
    return fits[0] if len(fits) == 1 else None


def _read_from_owner(
    tree: exp.Expression,
    dialect: str,
    aliases: dict[str, str],
    by_name: dict[str, Box],
    qualifier: str,
    name: str,
    owner: tuple[str, str],
) -> Repair | None:
    """`qualifier.name` read as `owner`'s column: from `qualifier` itself
    when it is that table, else from the one alias of the query that is,
    else through the foreign keys from `qualifier`'s table to it."""
    table, column = owner
    if aliases[qualifier] == table:
        return _rewrite(tree, dialect, qualifier, name, qualifier, column)
    holders = [alias for alias, named in aliases.items() if named == table]
    if len(holders) == 1:
        return _rewrite(tree, dialect, qualifier, name, holders[0], column)
    if holders:
        return None
    own = (qualifier, aliases[qualifier])
    return join_for_column(tree, dialect, by_name, own, name, owner)


def _table_aliases(tree: exp.Expression, by_name: dict[str, Box]) -> dict[str, str]:
    """Each alias of the query and the table it names, spelt as the schema
    spells it when only case differs (`FROM medal AS T1` reads `Medal`:
    SQL table names ignore case)."""
    spelt = {name.casefold(): name for name in by_name}
    return {
        table.alias_or_name: spelt.get(table.name.casefold(), table.name)
        for table in tree.find_all(exp.Table)
    }


def _compared(tree: exp.Expression, left: tuple[str, str], right: tuple[str, str]) -> bool:
    """Whether the query compares column `left` with column `right` (each as
    (qualifier, name)) for equality, in either order."""
    return any(sides == {left, right} for sides in column_equalities(tree))


def _repair_join_key(
    tree: exp.Expression,
    dialect: str,
    aliases: dict[str, str],
    by_name: dict[str, Box],
    qualifier: str,
    holder: str,
    name: str,
) -> Repair | None:
    """`qualifier.name = holder.name` where only `holder`'s table has `name`
    (`cars_data AS T1 JOIN car_names AS T2 ON T1.MakeId = T2.MakeId`): the
    two tables' declared foreign key through `holder.name` names the key of
    `qualifier`'s table to join on (`T1.Id`); with no key between the two,
    a chain of keys through other tables may reach the column
    (`agent.repair.sql_join_chains`). None when neither decides: moving the
    column to `holder` would compare it with itself and join every row with
    every row."""
    own, other = by_name[aliases[qualifier]], by_name[aliases[holder]]
    keys = {
        key.ref_field
        for key in other.foreign_keys
        if folded(key.field) == folded(name) and key.ref_box == own.name
    }
    keys |= {
        key.field
        for key in own.foreign_keys
        if key.ref_box == other.name and folded(key.ref_field) == folded(name)
    }
    if len(keys) > 1:
        return None
    if not keys:
        own_table = (qualifier, aliases[qualifier])
        return join_through_keys(tree, dialect, by_name, own_table, holder, name)
    return _rewrite(tree, dialect, qualifier, name, qualifier, keys.pop())


def _join_on_declared_key(
    tree: exp.Expression,
    dialect: str,
    aliases: dict[str, str],
    by_name: dict[str, Box],
    qualifier: str,
    name: str,
) -> Repair | None:
    """`qualifier.name = partner.other`, a join condition whose column
    `qualifier`'s table lacks, between two tables that one declared foreign
    key joins (`cars_data AS T1 JOIN car_names AS T2 ON T1.MakeId =
    T2.ModelId`, the key being `cars_data.Id -> car_names.MakeId`): the
    condition becomes that key's (`T1.Id = T2.MakeId`). None when the column
    is compared with no other table's, or no one key joins the two."""
    partners = {
        side
        for sides in column_equalities(tree)
        if (qualifier, name) in sides
        for side in sides
        if side[0] and side[0] != qualifier and side[0] in aliases
    }
    if len(partners) != 1:
        return None
    ((partner, other),) = partners
    own, theirs = by_name[aliases[qualifier]], by_name.get(aliases[partner])
    if theirs is None:
        return None
    pairs = {(key.field, key.ref_field) for key in own.foreign_keys if key.ref_box == theirs.name}
    pairs |= {(key.ref_field, key.field) for key in theirs.foreign_keys if key.ref_box == own.name}
    if len(pairs) != 1:
        return None
    ((own_key, their_key),) = pairs
    for equality in tree.find_all(exp.EQ):
        sides = (equality.left, equality.right)
        if not all(isinstance(side, exp.Column) for side in sides):
            continue
        if {(side.table, side.name) for side in sides} != {(qualifier, name), (partner, other)}:
            continue
        for side in sides:
            key = own_key if side.table == qualifier else their_key
            side.set("this", exp.to_identifier(key))
    before = f"{qualifier}.{name} = {partner}.{other}"
    change = f"join {before} -> {qualifier}.{own_key} = {partner}.{their_key}"
    return Repair(tree.sql(dialect=dialect), (change,))


def _rewrite(
    tree: exp.Expression,
    dialect: str,
    qualifier: str | None,
    name: str,
    new_qualifier: str | None,
    replacement: str | None,
) -> Repair | None:
    if replacement is None:
        return None
    unlinked = _links_within_one_table(tree)
    for column in list(tree.find_all(exp.Column)):
        if column.name != name or (column.table or None) != qualifier:
            continue
        column.set("this", exp.to_identifier(replacement))
        if new_qualifier is not None:
            column.set("table", exp.to_identifier(new_qualifier))
    if _links_within_one_table(tree) > unlinked:
        return None  # a join condition now reads one table only: every row with every row
    old = f"{qualifier}.{name}" if qualifier else name
    new = f"{new_qualifier}.{replacement}" if new_qualifier else replacement
    return Repair(tree.sql(dialect=dialect), (f"column {old} -> {new}",))


def _links_within_one_table(tree: exp.Expression) -> int:
    """Equalities between columns that compare a column with itself or two
    columns of one alias: as a join condition they join nothing."""
    return sum(_joins_nothing(sides) for sides in column_equalities(tree))


def _joins_nothing(sides: set[tuple[str, str]]) -> bool:
    aliases = {alias for alias, _ in sides}
    return len(sides) == 1 or (len(aliases) == 1 and "" not in aliases)


def _missing(message: str) -> tuple[str, str | None, str] | None:
    """(kind, qualifier, name) of the name a database error complains about."""
    for kind, pattern in MISSING_PATTERNS:
        match = pattern.search(message)
        if match:
            qualifier, _, name = match.group(1).rpartition(".")
            return kind, qualifier or None, name
    return None


def _fields(box: Box) -> list[str]:
    return [str(column) for column in box.frame.columns]
