"""Exceptions and the parse-error record of fastparse."""
from typing import NamedTuple

__all__ = ["FastparseError", "ParseError", "ParseLimitError", "SelectorError"]


class FastparseError(Exception):
    """Base class of the exceptions fastparse raises itself."""


class ParseLimitError(FastparseError, ValueError):
    """The input exceeds ``max_size`` or nests deeper than ``max_depth``.

    ``limit`` names the limit (``"max_size"``, ``"max_depth"``, or
    ``"distinct_tag_names"``: the fixed 65,386 unknown names a document may hold),
    ``value`` is its setting and ``offset`` the position in the source where it was
    exceeded.
    """

    def __init__(self, limit: str, message: str, value: int, offset: int) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value
        self.offset = offset


class SelectorError(FastparseError, ValueError):
    """A CSS selector that cannot be parsed; the message quotes it and marks the position."""

    def __init__(self, message: str, selector: str = "", position: int = 0) -> None:
        super().__init__(message)
        self.selector = selector
        self.position = position


class ParseError(NamedTuple):
    """One parse error of ``doc.errors``: the HTML Standard's code and where it occurred."""

    code: str
    offset: int
    line: int
    col: int
