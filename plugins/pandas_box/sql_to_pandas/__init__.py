"""The SQL-to-pandas translator: gold SQL becomes pandas over the BOXes, no LLM.

Pandora's memory starts from SQL-labelled questions; each gold query is
translated clause by clause into pandas with the reasoning as `#` comments,
then verified by running both through the executor (`verify_translation`).
"""

from plugins.pandas_box.sql_to_pandas.comparison import rows_match
from plugins.pandas_box.sql_to_pandas.errors import UntranslatableSql
from plugins.pandas_box.sql_to_pandas.translate import Translation, translate_sql
from plugins.pandas_box.sql_to_pandas.verification import Verification, verify_translation

__all__ = [
    "Translation",
    "UntranslatableSql",
    "Verification",
    "rows_match",
    "translate_sql",
    "verify_translation",
]
