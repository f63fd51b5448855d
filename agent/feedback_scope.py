"""Which data a failed program reads, and where a name it lacks lives instead.

"Did you mean" is only right when it searches the tables the program reads:
`SELECT nosuchcol FROM album` is not helped by `purchase['purchase_id']`. And
a table the workspace does not hold may be a source of its own (`cities`
beside the `music` database), or a type of a knowledge graph, which SQL
cannot show: then the hint is to run on that source, not a near name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from agent.join_paths import is_python
from plugins import Source

SQL_TABLE_FALLBACK = re.compile(r"\b(?:FROM|JOIN)\s+[\"`\[]?(\w+)", re.IGNORECASE)


def boxes_read(code: str, box_names: Sequence[str]) -> list[str]:
    """The BOX (table) names `code` reads: the names a Python program uses as
    variables, or the tables of a SQL query's FROM and JOIN clauses (matched
    case-insensitively, as SQL names are)."""
    if is_python(code):
        used = {node.id for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Name)}
        return [name for name in box_names if name in used]
    tables = {table.casefold() for table in _sql_tables(code)}
    return [name for name in box_names if name.casefold() in tables]


def _sql_tables(query: str) -> list[str]:
    import sqlglot  # SQL feedback only: keeps the agent's start-up light
    from sqlglot import exp

    try:
        statements = sqlglot.parse(query)
    except sqlglot.errors.SqlglotError:
        return SQL_TABLE_FALLBACK.findall(query)
    return [
        table.name
        for statement in statements
        if statement
        for table in statement.find_all(exp.Table)
    ]


def holds_a_graph(
    sources: Sequence[Source], boxes: Sequence[object], node_names: Sequence[str]
) -> bool:
    """True when the program's data is a knowledge graph: a KG source, or
    graph node names with no BOX (the networkx representation)."""
    return any(source.kind == "kg" for source in sources) or (bool(node_names) and not boxes)


def sql_on_graph_hint(networkx: bool) -> str:
    """What to write instead of SQL in a Python program over a knowledge graph."""
    if networkx:
        return (
            "This program is Python, not SQL: the graph is the NetworkX MultiDiGraph `graph` "
            "(nodes are entity names and values, each edge has a `relation`); write Python "
            "that walks it, e.g. [t for _, t, d in graph.out_edges('Entity', data=True) "
            "if d['relation'] == 'relation_name'], in KGQA(question, graph) or `result`."
        )
    return (
        "This program is Python, not SQL: the graph's types are the BOXes; write pandas on them "
        "(filter with frame[frame['field'] == value], join with .merge) and assign `result`."
    )


def elsewhere_hints(
    missing: str, code: str, sources: Sequence[Source], other_sources: Sequence[Source]
) -> list[str]:
    """When `missing` is a table or type of a source the program does not run
    on (`other_sources`: the ones its caller knows), how to reach it."""
    wanted = missing.casefold()
    hints = []
    for other in other_sources:
        if wanted not in {name.casefold() for name in [other.name, *source_tables(other)]}:
            continue
        hints.append(_reach(missing, other, code, [source.name for source in sources]))
    return hints


def _reach(missing: str, other: Source, code: str, current: list[str]) -> str:
    both = [*current, other.name]
    own = "is its own source" if missing.casefold() == other.name.casefold() else "is in the source"
    where = f"{missing!r} {own} {other.name!r} ({other.kind}), which this program does not run on"
    if other.kind == "kg":
        if not is_python(code):
            return (
                f"{where}; a knowledge graph is queried on its own: ask with "
                f"sources=[{other.name!r}] and its entities (in SQL its types are tables)."
            )
        return f"{where}: run on it too (sources={both!r}) with its entities."
    if not is_python(code):
        return (
            f"{where}; SQL runs on one database at a time: query it alone with "
            f"sources=[{other.name!r}], or join across sources in pandas with sources={both!r}."
        )
    return f"{where}: pass sources={both!r}."


def source_tables(source: Source) -> list[str]:
    """The table (or KG type) names of a source, without loading its rows;
    none for a KG that cannot be scanned whole (an endpoint)."""
    if source.kind == "table":
        return [str(name) for name in source.handle]
    if source.kind == "database":
        return [table.name for table in source.handle.tables]
    if source.kind == "kg" and source.handle.whole_schema_is_cheap:
        from plugins.knowledge_graph.naming import kg_schema_names

        return list(kg_schema_names(source.handle).types.values())
    return []
