"""DB-to-BOX (Pandora, Algorithm 2): every database table becomes a BOX.

Foreign keys are kept. Databases are looser than pandas about types (SQLite
compares the text '2' equal to the integer 2), so the two columns of every
foreign key are given one dtype: numbers when every value of both is a number,
else text on both sides. A join or `isin` across a key then never silently
returns nothing.
"""

from __future__ import annotations

import pandas as pd

from plugins.loaders.database_schema import Database
from plugins.model import Box, ForeignKey
from plugins.names import make_identifier


def database_to_boxes(database: Database, origin: str) -> list[Box]:
    """One BOX per table, foreign keys renamed to BOX names, key dtypes unified."""
    box_names = {t.name: make_identifier(t.name, fallback="table") for t in database.tables}
    frames = {table.name: database.read_frame(table) for table in database.tables}
    for table in database.tables:
        for key in table.foreign_keys:
            if key.ref_table in frames and key.ref_column in frames[key.ref_table].columns:
                unify_key_dtypes(frames, (table.name, key.column), (key.ref_table, key.ref_column))
    return [
        Box(
            box_names[table.name],
            frames[table.name],
            origin,
            [
                ForeignKey(key.column, box_names.get(key.ref_table, key.ref_table), key.ref_column)
                for key in table.foreign_keys
            ],
        )
        for table in database.tables
    ]


def unify_key_dtypes(
    frames: dict[str, pd.DataFrame], child: tuple[str, str], parent: tuple[str, str]
) -> None:
    """Give the child and parent key columns one dtype, in place in `frames`."""
    child_values = frames[child[0]][child[1]]
    parent_values = frames[parent[0]][parent[1]]
    if child_values.dtype == parent_values.dtype:
        return
    child_numbers = _as_numbers(child_values)
    parent_numbers = _as_numbers(parent_values)
    if child_numbers is not None and parent_numbers is not None:
        common = _common_number_dtype(child_numbers, parent_numbers)
        frames[child[0]][child[1]] = child_numbers.astype(common)
        frames[parent[0]][parent[1]] = parent_numbers.astype(common)
    else:
        frames[child[0]][child[1]] = _as_text(child_values)
        frames[parent[0]][parent[1]] = _as_text(parent_values)


def _as_numbers(values: pd.Series) -> pd.Series | None:
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return values
    numbers = pd.to_numeric(values.astype("string").str.strip(), errors="coerce")
    if numbers.notna().sum() != values.notna().sum():
        return None
    return numbers


def _common_number_dtype(first: pd.Series, second: pd.Series) -> str:
    both = pd.concat([first.dropna(), second.dropna()]).astype("float64")
    if (both % 1 == 0).all():
        has_missing = first.isna().any() or second.isna().any()
        return "Int64" if has_missing else "int64"
    return "float64"


def _as_text(values: pd.Series) -> pd.Series:
    if pd.api.types.is_float_dtype(values) and (values.dropna() % 1 == 0).all():
        values = values.astype("Int64")
    return values.astype("string").astype("str")
