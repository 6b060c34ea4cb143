"""parse() and parse_fragment(): argument checks and the encoding decision,
then one call into the C engine, which runs without the GIL.

Offsets (``tag.span``, ``tag.line``, ``tag.col``, ``ParseError.offset``) index
``doc.source``: characters for str input, bytes for bytes input (a BOM counts,
as it is part of the source). Input that needs transcoding (UTF-16,
ISO-2022-JP) is parsed as UTF-8 and ``doc.source`` is that UTF-8 ``bytes``.
bytearray and memoryview input is copied once into ``bytes`` so the document
cannot change under the index.
"""
from . import _core
from .encoding import detect, lookup, to_utf8

__all__ = ["parse", "parse_fragment", "DEFAULT_MAX_SIZE", "DEFAULT_MAX_DEPTH"]

DEFAULT_MAX_SIZE = 256 * 1024 * 1024
DEFAULT_MAX_DEPTH = 4096
_RECOVERY = {"html5": 0, "none": 1}


def _check_int(value, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


def _parse(source, encoding, max_size, max_depth, recovery, scripting, context):
    _check_int(max_size, "max_size", 0, 2**63 - 1)
    _check_int(max_depth, "max_depth", 1, 65535)
    if recovery not in _RECOVERY:
        raise ValueError(f"recovery must be 'html5' or 'none', got {recovery!r}")
    if encoding is not None and not isinstance(encoding, str):
        raise TypeError(f"encoding must be a str or None, not {type(encoding).__name__}")
    options = dict(max_size=max_size, max_depth=max_depth, recovery=_RECOVERY[recovery],
                   scripting=bool(scripting), context=context)
    if isinstance(source, str):
        if encoding is not None:
            lookup(encoding)  # an unknown label is an error even though str needs no decoding
        return _core._parse(source, encoding="utf-8", **options)
    if isinstance(source, (bytearray, memoryview)):
        source = bytes(source)
    elif not isinstance(source, bytes):
        raise TypeError(
            f"parse() needs str, bytes, bytearray or memoryview, not {type(source).__name__}")
    found = detect(source, encoding)
    if found.transcode:
        if len(source) > max_size:
            return _core._parse(source, encoding=found.name, **options)  # raises ParseLimitError
        return _core._parse(to_utf8(source, found), encoding=found.name, **options)
    return _core._parse(source, encoding=found.name, codec=found.codec if found.legacy else None,
                        base=len(found.bom), **options)


def parse(source, *, encoding=None, max_size=DEFAULT_MAX_SIZE, max_depth=DEFAULT_MAX_DEPTH,
          recovery="html5", scripting=False):
    """Parse an HTML document into a flat, document-ordered index of its elements.

    source: str, bytes, bytearray or memoryview. Bytes are decoded lazily: the
    encoding comes from a BOM, then ``encoding=`` (a transport-layer label),
    then ``<meta charset>`` in the first 1024 bytes, then UTF-8 if the bytes
    are valid UTF-8, else windows-1252 (see fastparse.encoding).
    max_size: bytes (ParseLimitError beyond); max_depth: open elements
    (ParseLimitError beyond). recovery: "html5" (browser nesting rules) or
    "none" (nesting exactly as the tags are written). scripting: parse
    ``<noscript>`` content as text, as a browser with scripts enabled does.
    """
    return _parse(source, encoding, max_size, max_depth, recovery, scripting, None)


def parse_fragment(source, context="div", *, encoding=None, max_size=DEFAULT_MAX_SIZE,
                   max_depth=DEFAULT_MAX_DEPTH, recovery="html5", scripting=False):
    """Parse ``source`` as the inner HTML of a ``context`` element (e.g. "td", "svg").

    The context decides the first tokenizer state (a "textarea" context makes
    everything text) and which nesting rules apply (table rules for "tr").
    """
    if not isinstance(context, str):
        raise TypeError(f"context must be a tag name (str), not {type(context).__name__}")
    return _parse(source, encoding, max_size, max_depth, recovery, scripting, context.lower())
