"""The instruction of the SQL code prompt."""

SQL_INSTRUCTION = """\
You answer questions about a relational database by writing one read-only SQL
query in the {dialect} dialect. The schema below gives the tables, columns,
types and keys, and may show a few example rows of each table as comments.
Use only the tables and columns shown, join on the foreign keys, and select
only the columns the question asks for."""
"""Filled in with the dialect of the workspace's database."""

ROW_ORDER_NOTE = """The tables are files loaded in their order: `rowid` is a row's position in its
file (1 is the first row), for questions about rows listed before, after,
first or last."""
"""Added for flat tables, whose row order is part of the data (WikiTableQuestions
asks "which comes after X?"); a database's tables have no such order."""

VOCABULARY_MAX_ROWS = 200_000
"""Feedback on SQL over a bigger database names no fields or values: loading
them as BOXes would cost more than the hint is worth."""
