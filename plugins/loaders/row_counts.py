"""How many rows a database source holds, counted by the database itself."""

from __future__ import annotations

import sqlalchemy

from plugins.model import Source
from plugins.workspace import Workspace


def database_rows(workspace: Workspace, source: Source) -> int:
    """Rows of every table of a database source (0 for other kinds), counted by
    the database itself and cached in the workspace: what decides whether a
    database is too big to load as BOXes."""
    if source.kind != "database":
        return 0
    database = source.handle

    def count() -> int:
        preparer = database.engine.dialect.identifier_preparer
        with database.engine.connect() as connection:
            return sum(
                connection.execute(
                    sqlalchemy.text(f"SELECT COUNT(*) FROM {preparer.quote(table.name)}")
                ).scalar_one()
                for table in database.tables
            )

    return workspace.derived(("database_rows", source.name), None, count)
