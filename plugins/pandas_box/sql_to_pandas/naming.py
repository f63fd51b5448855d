"""Names and small pieces of generated code: keys, column names, DataFrames, sorting."""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from plugins.pandas_box.sql_to_pandas.expressions import Expr


@dataclass(frozen=True)
class OrderKey:
    """One ORDER BY key: a column of the result (possibly hidden) and its direction."""

    column: str
    ascending: bool


def sql_text(node: exp.Expression) -> str:
    """`node` as SQLite SQL, for comments."""
    return node.sql(dialect="sqlite")


def keys_code(keys: list[str]) -> str:
    """One key as a string, several as a list."""
    return repr(keys[0]) if len(keys) == 1 else repr(keys)


def frame_column(code: str, frame: str) -> str | None:
    """The column name when `code` is just `frame['name']`, else None."""
    prefix = f"{frame}["
    if code.startswith(prefix) and code.endswith("]") and code.count("[") == 1:
        inner = code[len(prefix) : -1]
        if inner[:1] in "'\"" and inner[-1:] == inner[:1]:
            return inner[1:-1]
    return None


def unique_name(base: str, taken: dict[str, object] | set[str]) -> str:
    """`base`, or `base_2`, `base_3`... whichever is not taken."""
    name, counter = base, 2
    while name in taken:
        name, counter = f"{base}_{counter}", counter + 1
    return name


def unique_names(names: list[str]) -> list[str]:
    """Column names made distinct (two SELECT items may share a name)."""
    taken: set[str] = set()
    result = []
    for name in names:
        unique = unique_name(name, taken)
        taken.add(unique)
        result.append(unique)
    return result


def output_name(item: exp.Expression) -> str:
    """The column name SQLite gives a SELECT item: its alias, its column name, or its text."""
    if isinstance(item, exp.Alias):
        return item.alias
    if isinstance(item, exp.Column):
        return item.name
    return sql_text(item)


def readable(column: str) -> str:
    """A column name fit to be part of another name (`T1.age` -> `age`)."""
    return column.rsplit(".", 1)[-1].replace(" ", "_").lower()


def dataframe_code(columns: dict[str, Expr], one_row: bool, frame: str) -> str:
    """`pd.DataFrame({...})` of the selected values; single values make one row."""
    if one_row:
        body = ", ".join(f"{name!r}: [{value.code}]" for name, value in columns.items())
        return f"pd.DataFrame({{{body}}})"
    body = ", ".join(f"{name!r}: {value.code}" for name, value in columns.items())
    if all(value.scalar for value in columns.values()):
        return f"pd.DataFrame({{{body}}}, index={frame}.index)"
    return f"pd.DataFrame({{{body}}})"


def sort_code(keys: list[OrderKey]) -> str:
    """`.sort_values(...)` for ORDER BY keys: NULL sorts first ascending, last descending.

    pandas has one NULL position per call, so keys of mixed directions are
    sorted one at a time, last key first (each sort is stable).
    """
    directions = {key.ascending for key in keys}
    if len(directions) == 1:
        ascending = keys[0].ascending
        na_position = "first" if ascending else "last"
        return (
            f".sort_values({keys_code([key.column for key in keys])}, ascending={ascending}, "
            f"na_position={na_position!r}, kind='stable')"
        )
    return "".join(sort_code([key]) for key in reversed(keys))
