"""The records of doc.comments."""
from typing import NamedTuple

__all__ = ["Comment"]


class Comment(NamedTuple):
    """One comment of the document (``<!--text-->``, or a bogus comment such as
    ``<!x>`` or ``<?x>``): its data as the tokenizer builds it (no character
    references decoded) and where its ``<`` is (offsets as for ``tag.span``)."""

    text: str
    offset: int
    line: int
    col: int
