"""Table and column names as the SQL schema shows them, and back.

A name holding a newline or another control character is shown with that
character escaped (`"Population\\n(2020)"`, see `plugins.prompt_text`), so that
data cannot forge the prompt's structure. SQL identifiers have no escapes of
their own, so a query that quotes a name exactly as shown gets the real name
back before it runs: people and models can type what they see.
"""

from __future__ import annotations

from collections.abc import Iterable

from plugins.prompt_text import escape_control_characters


def shown_name(name: str) -> str:
    """`name` as the schema shows it: control characters escaped."""
    return escape_control_characters(name)


def restore_shown_names(query: str, dialect: str, names: Iterable[str]) -> str:
    """`query` with every quoted identifier that is the shown form of one of
    `names` replaced by the real name; a query quoting no such name is
    returned unchanged. String literals and comments are never touched, and a
    real name that happens to look like an escape keeps its meaning."""
    names = set(names)
    real_of_shown = {shown_name(name): name for name in names if shown_name(name) != name}
    real_of_shown = {shown: real for shown, real in real_of_shown.items() if shown not in names}
    if not real_of_shown or not any(shown in query for shown in real_of_shown):
        return query
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.errors import TokenError
    from sqlglot.tokens import TokenType

    from plugins.sql_schema.statement_check import SQLGLOT_DIALECTS

    try:
        tokens = Dialect.get_or_raise(SQLGLOT_DIALECTS.get(dialect)).tokenize(query)
    except TokenError:
        return query  # the read-only check reports the broken query
    pieces: list[str] = []
    position = 0
    for token in tokens:
        if token.token_type != TokenType.IDENTIFIER or token.text not in real_of_shown:
            continue
        quote_open, quote_close = query[token.start], query[token.end]
        real = real_of_shown[token.text].replace(quote_close, quote_close * 2)
        pieces.append(query[position : token.start] + quote_open + real + quote_close)
        position = token.end + 1
    return "".join(pieces) + query[position:]
