"""The three places an expression can be: a row, an aggregate over all rows, a group.

- `RowContext`: WHERE, JOIN and SELECT without aggregates; columns are Series
  of the frame.
- `WholeFrameContext`: aggregates without GROUP BY; the query has one row, so
  aggregates are single values (`frame['age'].max()`), and a bare column takes
  its first row's value (after sorting for a lone MIN/MAX, as SQLite does).
- `GroupedContext`: after GROUP BY; every group key, aggregate and bare column
  was computed into the aggregated frame and is read from it by its SQL text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.expressions import Expr
from plugins.pandas_box.sql_to_pandas.scope import Scope

AGGREGATE_KINDS = {"count": "integer", "avg": "float"}


def column_sql(node: exp.Expression) -> str:
    """The SQL text of `node`, the key under which contexts remember translations."""
    return node.sql(dialect="sqlite").lower()


@dataclass
class RowContext:
    """Columns of the frame, one value per row; aggregates are not allowed here."""

    scope: Scope

    def lookup(self, node: exp.Expression) -> Expr | None:
        """Nothing is precomputed for rows."""
        return None

    def column(self, node: exp.Column) -> Expr | None:
        """`frame['name']`, or None when no relation has the column."""
        resolved = self.scope.resolve(node.table or None, node.name)
        if resolved is None:
            return None
        return Expr(f"{self.scope.frame}[{resolved.key!r}]", resolved.kind, False)

    def aggregate(self, node: exp.AggFunc) -> Expr:
        """Aggregates belong in SELECT, HAVING or ORDER BY."""
        raise UntranslatableSql("an aggregate in WHERE or JOIN", node.sql(dialect="sqlite"))

    def is_correlated(self, node: exp.Column) -> bool:
        """Whether an enclosing query has the column."""
        return self.scope.resolves_outside(node.table or None, node.name)


@dataclass
class WholeFrameContext(RowContext):
    """Aggregates over the whole frame; each is written with `aggregate_code`."""

    aggregate_code: dict[str, Expr] = field(default_factory=dict)

    def column(self, node: exp.Column) -> Expr | None:
        """A bare column next to aggregates: its value in the first row."""
        row = super().column(node)
        return None if row is None else Expr(f"{row.code}.iloc[0]", row.kind, True)

    def aggregate(self, node: exp.AggFunc) -> Expr:
        """The aggregate's single value."""
        return self.aggregate_code[column_sql(node)]


@dataclass
class GroupedContext:
    """Values of the aggregated frame `grouped`, one row per group."""

    grouped: str
    computed: dict[str, tuple[str, str]]
    """SQL text of a key, aggregate or bare column -> (its column in `grouped`, its kind)."""
    scope: Scope

    def lookup(self, node: exp.Expression) -> Expr | None:
        """A group key or aggregate computed before, read from the aggregated frame."""
        found = self.computed.get(column_sql(node))
        if found is None:
            return None
        return Expr(f"{self.grouped}[{found[0]!r}]", found[1], False)

    def column(self, node: exp.Column) -> Expr | None:
        """A column of the aggregated frame (a group key or a bare column)."""
        resolved = self.scope.resolve(node.table or None, node.name)
        if resolved is None:
            return None
        for name, kind in self.computed.values():
            if name == resolved.key:
                return Expr(f"{self.grouped}[{name!r}]", kind, False)
        raise UntranslatableSql("a column that is neither grouped nor aggregated", node.sql())

    def aggregate(self, node: exp.AggFunc) -> Expr:
        """Every aggregate was computed before; one that was not is a bug of collection."""
        raise UntranslatableSql("an aggregate in an unexpected place", node.sql())

    def is_correlated(self, node: exp.Column) -> bool:
        """Whether an enclosing query has the column."""
        return self.scope.resolves_outside(node.table or None, node.name)
