"""Turning arbitrary names (file stems, table names, KG types) into identifiers."""

import keyword
import re


def make_identifier(text: str, fallback: str = "box") -> str:
    """Return `text` as a valid Python identifier, keeping it recognisable.

    Characters that cannot appear in an identifier become `_`; a leading digit
    gets a `t_` prefix; a keyword gets a trailing `_`. Used for BOX names, which
    generated code refers to as variables.
    """
    kept = "".join(ch if ("_" + ch).isidentifier() else "_" for ch in text.strip())
    kept = re.sub(r"_+", "_", kept).strip("_")
    if not kept:
        return fallback
    if not kept[0].isidentifier():
        kept = "t_" + kept
    if keyword.iskeyword(kept) or keyword.issoftkeyword(kept):
        kept += "_"
    return kept
