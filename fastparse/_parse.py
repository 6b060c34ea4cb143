"""parse() and parse_fragment(): argument checks and the encoding decision,
then one call into the C engine, which runs without the GIL.

Offsets (``tag.span``, ``tag.line``, ``tag.col``, ``ParseError.offset``) index
``doc.source``: characters for str input, bytes for bytes input (a BOM counts,
as it is part of the source). Input that needs transcoding (UTF-16,
ISO-2022-JP) is parsed as UTF-8 and ``doc.source`` is that UTF-8 ``bytes``; a
str holding lone surrogates is parsed (and kept as ``doc.source``) with U+FFFD
in their place.
bytearray and memoryview input is copied once into ``bytes`` so the document
cannot change under the index, but for a memoryview of a whole ``bytes`` object,
which is that object.
"""
import operator
import re

from . import _core
from .encoding import detect, lookup, to_utf8

__all__ = ["DEFAULT_MAX_DEPTH", "DEFAULT_MAX_SIZE", "parse", "parse_fragment"]

DEFAULT_MAX_SIZE = _core.DEFAULT_MAX_SIZE     # 256 MiB
DEFAULT_MAX_DEPTH = _core.DEFAULT_MAX_DEPTH   # 4096
_RECOVERY = {"html5": 0, "none": 1}
_engine = _core._parse
_parse_bytes = _core._parse_bytes
_SURROGATE = re.compile("[\ud800-\udfff]")
# what the tokenizer can make a tag name of, after "svg " or "math " for a foreign context
_CONTEXT_NAME = re.compile(r"(?:(?:svg|math) )?[^\t\n\f\r />]+")


def _check_int(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    value = operator.index(value)   # numpy's integers too
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


def _as_bytes(source):
    """A bytearray or memoryview source as bytes: a view of a whole bytes object is
    that object (immutable already), anything else a copy."""
    if (type(source) is memoryview and type(source.obj) is bytes and source.c_contiguous
            and source.nbytes == len(source.obj)):
        return source.obj
    return memoryview(source).tobytes()   # the buffer as it is: bytes() would call a subclass's __bytes__


def _parse(source, encoding, max_size, max_depth, recovery, scripting, context):
    # the defaults are known good: check only what the caller changed
    if max_size is not DEFAULT_MAX_SIZE:
        max_size = _check_int(max_size, "max_size", 0, 2**63 - 1)
    if max_depth is not DEFAULT_MAX_DEPTH:
        max_depth = _check_int(max_depth, "max_depth", 1, 65535)
    mode = _RECOVERY.get(recovery) if isinstance(recovery, str) else None
    if mode is None:
        raise ValueError(f"recovery must be 'html5' or 'none', got {recovery!r}")
    if encoding is not None and not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str or None, not {type(encoding).__name__}")
    scripting = bool(scripting)
    if type(source) is bytes:
        pass
    elif isinstance(source, str):
        if encoding is not None:
            lookup(encoding)  # an unknown label is an error even though str needs no decoding
        try:
            return _engine(source, "utf-8", None, 0, max_size, max_depth, mode, scripting, context)
        except UnicodeEncodeError:
            # lone surrogates (e.g. from surrogateescape) have no UTF-8: parse the
            # str with U+FFFD in their place; the length, so every span, is the same
            source = _SURROGATE.sub("\ufffd", source)
            return _engine(source, "utf-8", None, 0, max_size, max_depth, mode, scripting, context)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        source = _as_bytes(source)
    else:
        raise TypeError(
            f"parse() needs str, bytes, bytearray or memoryview, not {type(source).__name__}")
    found = detect(source, encoding)
    if len(source) > max_size:
        # max_size counts the input's bytes, a BOM included, before any transcoding: the
        # engine raises ParseLimitError on the bytes as given
        return _engine(source, found.name, None, 0, max_size, max_depth, mode, scripting, context)
    if found.transcode:
        source = to_utf8(source, found)   # may grow past max_size, which the input is within
        return _engine(source, found.name, None, 0, max(max_size, len(source)), max_depth, mode, scripting,
                       context)
    return _engine(source, found.name, found.codec if found.legacy else None, len(found.bom),
                   max_size, max_depth, mode, scripting, context)


def parse(source, *, encoding=None, max_size=DEFAULT_MAX_SIZE, max_depth=DEFAULT_MAX_DEPTH,
          recovery="html5", scripting=False):
    """parse() for what the C entry point (fastparse._core.parse, below) does not
    take itself: str, bytearray and memoryview sources, keyword arguments other
    than encoding= alone, and the encodings C leaves to Python (ISO-2022-JP,
    replacement)."""
    # plain bytes come here only when _core.parse's C path has tried them and left
    # them to Python (ISO-2022-JP, replacement): trying again would read them twice
    if (type(source) is bytearray or type(source) is memoryview) and (
            encoding is None and max_size is DEFAULT_MAX_SIZE and max_depth is DEFAULT_MAX_DEPTH
            and recovery == "html5" and scripting is False):
        source = _as_bytes(source)   # as _parse does: the index never sees a change
        doc = _parse_bytes(source)   # the encoding decided in C as detect() decides; else None
        if doc is not None:
            return doc
    return _parse(source, encoding, max_size, max_depth, recovery, scripting, None)


# The public parse() is fastparse._core.parse: bytes without keyword arguments,
# or with encoding= alone, are parsed in C with no Python frame in between (one
# cost a small page 3% of its time, the encoding= call 1.3 us more), the rest
# go to the function above, which keeps its name for the errors a bad call
# raises. The docstring and signature are in py_module.c.
_parse_general = parse
_core._set_parse_general(_parse_general)
parse = _core.parse


def parse_fragment(source, context="div", *, encoding=None, max_size=DEFAULT_MAX_SIZE,
                   max_depth=DEFAULT_MAX_DEPTH, recovery="html5", scripting=False):
    """Parse ``source`` as the inner HTML of a ``context`` element (e.g. "td", "svg").

    The context decides the first tokenizer state (a "textarea" context makes
    everything text) and which nesting rules apply (table rules for "tr").
    "svg NAME" and "math NAME" name a foreign context element; a name the
    engine does not know acts as a <div>. A context that cannot be a tag
    name (empty, or holding whitespace, "/" or ">") raises ValueError.
    """
    if not isinstance(context, str):
        raise TypeError(f"context must be a tag name (str), not {type(context).__name__}")
    name = context.lower()
    if not _CONTEXT_NAME.fullmatch(name):
        raise ValueError(f"context must be a tag name (e.g. 'div', 'tr', 'svg title'), got {context!r}")
    return _parse(source, encoding, max_size, max_depth, recovery, scripting, name)
