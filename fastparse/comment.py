"""The records of doc.comments and doc.processing_instructions."""
from typing import NamedTuple

__all__ = ["Comment", "ProcessingInstruction"]


class Comment(NamedTuple):
    """One comment of the document (``<!--text-->``, or a bogus comment such as
    ``<!x>``, ``<?xml ...?>`` or ``<?1>``): its data as the tokenizer builds it (no character
    references decoded) and where its ``<`` is (offsets as for ``tag.span``)."""

    text: str
    offset: int
    line: int
    col: int


class ProcessingInstruction(NamedTuple):
    """One processing instruction of the document (``<?target data?>``; the HTML Standard
    parses them since 2026, before that they were bogus comments): its target as written,
    its data (white space after the target left out, a ``?`` right before the closing
    ``>`` too) and where its ``<`` is (offsets as for ``tag.span``). ``<?xml ...?>`` and
    ``<?xml-stylesheet ...?>`` stay bogus comments."""

    target: str
    data: str
    offset: int
    line: int
    col: int
