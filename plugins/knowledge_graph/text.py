"""Text normalisation shared by entity linking and naming."""

import re
import unicodedata

_NON_WORD = re.compile(r"[\W_]+")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def normalize_label(text: str) -> str:
    """Casefolded words without accents or punctuation, single-spaced.

    "Totò d'Arabia" and "toto d arabia" normalise alike, so a question's words
    match a label whatever its accents, case and punctuation.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NON_WORD.sub(" ", stripped.casefold()).strip()


def split_identifier_words(name: str) -> str:
    """`AlfredHitchcock` or `Alfred_Hitchcock` as `Alfred Hitchcock`: the
    words of an IRI local name, for matching names that have no label."""
    return _CAMEL_BOUNDARY.sub(" ", name).replace("_", " ")


def snake_case(name: str) -> str:
    """`directedBy` or `directed by` as `directed_by`: the form relation and
    type names take as BOX fields, BOX names and NetworkX relations."""
    words = _NON_WORD.sub(" ", split_identifier_words(name)).split()
    return "_".join(word.lower() for word in words)
