"""A join that compares a foreign key with the wrong column of the table it refers to.

A knowledge graph's BOXes keep a reference beside a literal id:
`dogs.ref_owner_id` holds the owner entity (`owner_id=2`) and is declared a
foreign key to `owners.owners`, while `owners.owner_id` holds the number 2.
Small models write `JOIN owners AS T2 ON T1.ref_owner_id = T2.owner_id`,
which compares an entity with a number and runs to nothing (Spider4SPARQL,
docs/evaluation.md). When a SQL program ran to nothing and one of its
equalities compares a declared foreign key with a column of the table the
key refers to other than the key's own target, the repair compares it with
the target instead, and the program runs again with no LLM call.

Only qualified columns are read (`T1.ref_owner_id`, not `ref_owner_id`), and
an alias that names two tables in one program is left alone.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from agent.repair import Repair
from agent.repair.names import folded
from plugins import Box


def repair_key_joins(code: str, boxes: list[Box], dialect: str) -> Repair | None:
    """`code` with each equality between a foreign key and a column of the
    table it refers to made to compare the key with its declared target;
    None when no equality needs it or the program does not parse."""
    try:
        tree = sqlglot.parse_one(code, read=dialect)
    except sqlglot.errors.SqlglotError:
        return None
    by_name = {folded(box.name): box for box in boxes}
    tables = _tables_by_alias(tree)
    changes = []
    for equality in tree.find_all(exp.EQ):
        sides = (equality.left, equality.right)
        if not all(isinstance(side, exp.Column) and side.table for side in sides):
            continue
        for key_side, other_side in (sides, sides[::-1]):
            target = _target_instead(key_side, other_side, tables, by_name)
            if target is not None:
                old = f"{other_side.table}.{other_side.name}"
                other_side.set("this", exp.to_identifier(target))
                changes.append(f"join {key_side.table}.{key_side.name} = {old} -> {target}")
                break
    if not changes:
        return None
    return Repair(tree.sql(dialect=dialect), tuple(changes))


def _tables_by_alias(tree: exp.Expression) -> dict[str, str | None]:
    """Each alias (or bare table name) of the program -> the table it names,
    None when it names two different tables."""
    tables: dict[str, str | None] = {}
    for table in tree.find_all(exp.Table):
        alias = table.alias_or_name
        named = folded(table.name)
        tables[alias] = named if tables.get(alias, named) == named else None
    return tables


def _target_instead(
    key_side: exp.Column,
    other_side: exp.Column,
    tables: dict[str, str | None],
    by_name: dict[str, Box],
) -> str | None:
    """The name of the column `other_side` should be, when `key_side` is a
    foreign key to `other_side`'s table but to another of its columns."""
    key_table, other_table = tables.get(key_side.table), tables.get(other_side.table)
    box = by_name.get(key_table) if key_table else None
    if box is None or other_table is None:
        return None
    for key in box.foreign_keys:
        same_key = folded(key.field) == folded(key_side.name)
        if same_key and folded(key.ref_box) == other_table:
            return None if folded(key.ref_field) == folded(other_side.name) else key.ref_field
    return None
