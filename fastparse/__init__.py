"""fastparse: a C-accelerated HTML parser that keeps a flat index of elements.

    import fastparse as fp
    doc = fp.parse(html_bytes)
    for a in doc.find_all("a"):
        print(a.get("href"), a.text)
"""
from typing import Literal

from ._core import SCAN_IMPL, Document, Tag
from ._missing import MISSING
from ._parse import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE, parse, parse_fragment
from .comment import Comment, ProcessingInstruction
from .errors import FastparseError, ParseError, ParseLimitError, SelectorError
from .sniff import sniff

__version__ = "0.1.0"

# the stubs' aliases, at run time too: an annotation that names them is evaluated there
Source = str | bytes | bytearray | memoryview
Recovery = Literal["html5", "none"]

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_SIZE",
    "MISSING",
    "SCAN_IMPL",
    "Comment",
    "Document",
    "FastparseError",
    "ParseError",
    "ParseLimitError",
    "ProcessingInstruction",
    "SelectorError",
    "Tag",
    "__version__",
    "parse",
    "parse_fragment",
    "sniff",
]
