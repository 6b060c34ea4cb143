"""Type stub of the fastparse package: the public API of ../shared/DESIGN.md."""
from typing import Final, Literal, TypeAlias

from ._core import SCAN_IMPL as SCAN_IMPL
from ._core import Document as Document
from ._core import Tag as Tag
from ._missing import MISSING as MISSING
from .comment import Comment as Comment
from .comment import ProcessingInstruction as ProcessingInstruction
from .errors import FastparseError as FastparseError
from .errors import ParseError as ParseError
from .errors import ParseLimitError as ParseLimitError
from .errors import SelectorError as SelectorError

__version__: Final[str]
DEFAULT_MAX_SIZE: Final[int]
DEFAULT_MAX_DEPTH: Final[int]

Source: TypeAlias = str | bytes | bytearray | memoryview
Recovery: TypeAlias = Literal["html5", "none"]

def parse(source: Source, *, encoding: str | None = None, max_size: int = ...,
          max_depth: int = ..., recovery: Recovery = "html5", scripting: bool = False) -> Document:
    """Parse an HTML document into a flat, document-ordered index of its elements."""

def parse_fragment(source: Source, context: str = "div", *, encoding: str | None = None,
                   max_size: int = ..., max_depth: int = ..., recovery: Recovery = "html5",
                   scripting: bool = False) -> Document:
    """Parse source as the inner HTML of a context element."""

def sniff(data: str | bytes | bytearray | memoryview) -> Literal["html", "xml", "json", "text", "binary"]:
    """Classify a text/html body: "html", "xml", "json", "text" or "binary"."""

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
