"""The instruction of the SQL code prompt."""

SQL_INSTRUCTION = """\
You answer questions about a relational database by writing one read-only SQL
query in the {dialect} dialect. The schema below gives the tables, columns,
types and keys, and may show a few example rows of each table as comments.
Use only the tables and columns shown, join on the foreign keys, and select
only the columns the question asks for."""
"""Filled in with the dialect of the workspace's database."""

VOCABULARY_MAX_ROWS = 200_000
"""Feedback on SQL over a bigger database names no fields or values: loading
them as BOXes would cost more than the hint is worth."""
