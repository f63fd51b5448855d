"""JOIN conditions as merge keys, and relations with qualified column names."""

from __future__ import annotations

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.scope import Relation, Scope


def split_join_condition(
    condition: exp.Expression | None, known: Scope, joined: Relation
) -> tuple[list[str], list[str], exp.Expression | None]:
    """Equalities between a column already in the frame and a column of the joined
    relation become merge keys; the rest of the condition is returned to filter on."""
    if condition is None:
        return [], [], None
    left_keys: list[str] = []
    right_keys: list[str] = []
    rest: list[exp.Expression] = []
    for part in conjuncts(condition):
        pair = equality_columns(part)
        for first, second in [pair, pair[::-1]] if pair else []:
            left = known.resolve(first.table or None, first.name)
            right = joined.find(second.name)
            names_joined = not second.table or second.table.lower() == joined.qualifier.lower()
            if left is not None and right is not None and names_joined:
                left_keys.append(left.key)
                right_keys.append(f"{joined.qualifier}.{right}")
                break
        else:
            rest.append(part)
    leftover = None
    for part in rest:
        leftover = part if leftover is None else exp.and_(leftover, part)
    return left_keys, right_keys, leftover


def conjuncts(condition: exp.Expression) -> list[exp.Expression]:
    """The parts of `a AND b AND c`."""
    if isinstance(condition, exp.And):
        return [*conjuncts(condition.this), *conjuncts(condition.expression)]
    if isinstance(condition, exp.Paren):
        return conjuncts(condition.this)
    return [condition]


def equality_columns(condition: exp.Expression) -> tuple[exp.Column, exp.Column] | None:
    """The two columns of `a.x = b.y`, None for any other condition."""
    if isinstance(condition, exp.EQ):
        left, right = condition.this, condition.expression
        if isinstance(left, exp.Column) and isinstance(right, exp.Column):
            return left, right
    return None


def prefixed(code: str, relation: Relation) -> str:
    """Rows of a relation with its columns named `qualifier.column`."""
    return f"{code}.add_prefix({relation.qualifier + '.'!r})"
