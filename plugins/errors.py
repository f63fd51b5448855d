"""Errors that carry a message meant for a person.

`BadInputError` is the user's input being wrong (missing file, unknown format,
unreadable data): the CLI turns it into a one-line message and exit code 2.
`PandoraError` is everything else the product reports on purpose.
"""


class PandoraError(Exception):
    """A failure Pandora explains itself; the message is one line for a person."""


class BadInputError(PandoraError):
    """The input given by the user cannot be used as it is (CLI exit code 2)."""
