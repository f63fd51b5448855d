"""What names mean while translating one SELECT: BOXes, their columns, aliases.

SQLite matches table and column names without regard to case; pandas does
not, so every name is resolved here to the BOX's own spelling. A frame built
from one table keeps plain column names; a frame joining several prefixes
each column with its table's qualifier (`T1.name`), as the SQL does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from plugins.model import Box
from plugins.names import make_identifier
from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql

ValueKind = str
"""What a value holds, as far as SQLite semantics care: integer, float, text, bool, date,
null or unknown."""


def value_kind(dtype: object) -> ValueKind:
    """The kind of values a pandas dtype holds."""
    if pd.api.types.is_bool_dtype(dtype):
        return "bool"
    if pd.api.types.is_integer_dtype(dtype):
        return "integer"
    if pd.api.types.is_float_dtype(dtype):
        return "float"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "date"
    if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype):
        return "text"
    return "unknown"


@dataclass(frozen=True)
class Relation:
    """A table as the query names it: its qualifier (alias or name) and its columns."""

    qualifier: str
    columns: dict[str, ValueKind]

    def find(self, name: str) -> str | None:
        """The column called `name`, in its own spelling, or None."""
        if name in self.columns:
            return name
        lowered = name.lower()
        return next((column for column in self.columns if column.lower() == lowered), None)


@dataclass
class Catalog:
    """The BOXes a query may read, found by table name whatever its case."""

    boxes: dict[str, Box]

    @classmethod
    def of(cls, boxes: list[Box]) -> Catalog:
        """A catalog of `boxes`."""
        return cls({box.name: box for box in boxes})

    def box(self, table_name: str) -> Box:
        """The BOX of SQL table `table_name`."""
        wanted = make_identifier(table_name, fallback="table").lower()
        for name, box in self.boxes.items():
            if name.lower() == wanted or name.lower() == table_name.lower():
                return box
        known = ", ".join(sorted(self.boxes)) or "none"
        raise UntranslatableSql("an unknown table", f"no BOX for {table_name!r} (BOXes: {known})")

    def relation(self, table_name: str, qualifier: str) -> Relation:
        """Relation `qualifier` over the BOX of `table_name`."""
        box = self.box(table_name)
        return Relation(
            qualifier,
            {str(column): value_kind(dtype) for column, dtype in box.frame.dtypes.items()},
        )


@dataclass(frozen=True)
class ResolvedColumn:
    """A column of the current frame: its key there and the kind of its values."""

    key: str
    kind: ValueKind


@dataclass
class Scope:
    """The relations of one FROM clause, held in the frame variable `frame`."""

    frame: str
    relations: list[Relation] = field(default_factory=list)
    outer: Scope | None = None
    prefixed: bool | None = None
    """Whether frame columns carry their table's qualifier; by default when there are
    several relations."""

    @property
    def qualified(self) -> bool:
        """Whether frame columns are named `qualifier.column`."""
        return self.prefixed if self.prefixed is not None else len(self.relations) > 1

    def key(self, relation: Relation, column: str) -> str:
        """The name of `relation`'s `column` in the frame."""
        return f"{relation.qualifier}.{column}" if self.qualified else column

    def resolve(self, table: str | None, name: str) -> ResolvedColumn | None:
        """The column `table.name` (or `name` in any relation), None when absent."""
        for relation in self.relations:
            if table and relation.qualifier.lower() != table.lower():
                continue
            column = relation.find(name)
            if column is not None:
                return ResolvedColumn(self.key(relation, column), relation.columns[column])
        return None

    def resolves_outside(self, table: str | None, name: str) -> bool:
        """Whether an enclosing query knows the column: a correlated reference."""
        scope = self.outer
        while scope is not None:
            if scope.resolve(table, name) is not None:
                return True
            scope = scope.outer
        return False

    def relation(self, qualifier: str) -> Relation:
        """The relation named `qualifier` (for `T1.*`)."""
        for relation in self.relations:
            if relation.qualifier.lower() == qualifier.lower():
                return relation
        raise UntranslatableSql("an unknown table qualifier", repr(qualifier))
