"""The HTML Standard's prescan (13.2.3.2) in Python, step for step: the reference that
tests/test_encoding.py checks the C prescan (fastparse/_core/prescan.c, run by
fastparse.encoding.prescan) against. Not part of the package: parse() and detect()
never run it.

https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
"""

from __future__ import annotations

import re

from fastparse.encoding import _UTF16, _label_to_name


class _EndOfInput(Exception):
    """The prescan's end condition: the window ran out mid-construct."""


_WS = frozenset(b"\t\n\x0c\r ")
_WS_SLASH = _WS | {0x2F}
_LETTERS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# "get an attribute": a name runs to whitespace, '/', '>' or (after its first byte) '='.
_ATTR_NAME = re.compile(rb"[^\t\n\x0c\r />][^\t\n\x0c\r /=>]*")
_UNQUOTED_VALUE = re.compile(rb"[^\t\n\x0c\r >]*")
_TAG_NAME_END = re.compile(rb"[\t\n\x0c\r >]")
_NOT_WS = re.compile(rb"[^\t\n\x0c\r ]")
_NOT_WS_SLASH = re.compile(rb"[^\t\n\x0c\r /]")
# NOTE: one regex does what repeated "get an attribute" calls do in a tag that
# is not <meta>, where only the end of the tag matters; it cuts the prescan
# of the corpus heads to about a third in CPython.
# Every part matches whole (a name up to its end, a quoted value up to its
# quote), so it has a single way to match and never backtracks badly; when
# the window ends inside the tag it fails and the exact steps take over.
_TAG_ATTRIBUTES = re.compile(rb"""
    (?:
        [\t\n\x0c\r /]*
        [^\t\n\x0c\r />][^\t\n\x0c\r /=>]*(?![^\t\n\x0c\r /=>])          # a name
        (?:
            [\t\n\x0c\r ]*=[\t\n\x0c\r ]*                                 # = value
            (?: "[^"]*" | '[^']*' | (?=>)
              | [^\t\n\x0c\r >"'][^\t\n\x0c\r >]*(?=[\t\n\x0c\r >]) )
          | (?![\t\n\x0c\r ]*=)                                        # or none
        )
    )*
    [\t\n\x0c\r /]*>""", re.VERBOSE)
_FAILURE = ""  # charset= named no encoding (no name is empty); None is "no charset yet"


def prescan_reference(head: bytes) -> str | None:
    """prescan() in Python."""
    if head.startswith(b"<\x00?\x00x\x00"):
        return "utf-16le"
    if head.startswith(b"\x00<\x00?\x00x"):
        return "utf-16be"
    try:
        found = _prescan_loop(head)
    except _EndOfInput:
        found = None
    return found if found is not None else _xml_encoding(head)


def _prescan_loop(b: bytes) -> str | None:
    n = len(b)
    # "Any other byte: do nothing", so jump from '<' to '<'.
    pos = b.find(b"<")
    while pos >= 0:
        nxt = b[pos + 1] if pos + 1 < n else None
        if b.startswith(b"<!--", pos):
            # The '>' of the first "-->"; its dashes may be those of "<!--".
            end = b.find(b"-->", pos + 2)
            if end < 0:
                return None
            pos = end + 2
        elif b[pos + 1:pos + 5].lower() == b"meta" and pos + 5 < n and b[pos + 5] in _WS_SLASH:
            charset, pos = _meta_charset(b, pos + 5)
            if charset is not None:
                return charset
        elif nxt in _LETTERS or (nxt == 0x2F and pos + 2 < n and b[pos + 2] in _LETTERS):
            m = _TAG_NAME_END.search(b, pos)
            if m is None:
                return None
            pos = _skip_attributes(b, m.start())
        elif nxt in (0x21, 0x2F, 0x3F):  # "<!", "</", "<?"
            pos = b.find(b">", pos + 1)
            if pos < 0:
                return None
        elif nxt is None:
            return None
        pos = b.find(b"<", pos + 1)  # "next byte"
    return None


def _skip_attributes(b: bytes, pos: int) -> int:
    """Repeat "get an attribute" until there is none; return the '>' position."""
    m = _TAG_ATTRIBUTES.match(b, pos)
    if m is not None:
        return m.end() - 1
    while True:  # the regex failed: the spec's steps find the end of input
        name, _, pos = _get_attribute(b, pos)
        if name is None:
            return pos


def _meta_charset(b: bytes, pos: int) -> tuple[str | None, int]:
    """Steps 2-16 of the <meta> branch; `pos` is at the byte after "<meta"."""
    seen: set[bytes] = set()
    got_pragma = False
    need_pragma = None
    charset = None
    while True:
        name, value, pos = _get_attribute(b, pos)
        if name is None:
            break
        if name in seen:
            continue
        seen.add(name)
        if name == b"http-equiv":
            got_pragma = got_pragma or value == b"content-type"
        elif name == b"content":
            found = _charset_from_content(value)
            if found is not None and charset is None:
                charset, need_pragma = found, True
        elif name == b"charset":
            charset, need_pragma = _label_to_name(value) or _FAILURE, False
    if need_pragma is None or (need_pragma and not got_pragma) or charset == _FAILURE:
        return None, pos
    if charset in _UTF16:
        return "utf-8", pos
    if charset == "x-user-defined":
        return "windows-1252", pos
    return charset, pos


def _get_attribute(b: bytes, pos: int) -> tuple[bytes | None, bytes, int]:
    """The spec's "get an attribute": (name, value, position); name None at '>'.

    Names and values are ASCII-lowercased, as the spec does.
    """
    m = _NOT_WS_SLASH.search(b, pos)
    if m is None:
        raise _EndOfInput
    pos = m.start()
    if b[pos] == 0x3E:  # '>'
        return None, b"", pos
    name_match = _ATTR_NAME.match(b, pos)
    assert name_match is not None  # its first byte may be anything but whitespace, '/' or '>'
    name, pos = name_match.group().lower(), name_match.end()
    if pos >= len(b):
        raise _EndOfInput
    c = b[pos]
    if c == 0x2F or c == 0x3E:  # '/' or '>'
        return name, b"", pos
    if c in _WS:  # "spaces": only an '=' after them gives a value
        m = _NOT_WS.search(b, pos)
        if m is None:
            raise _EndOfInput
        pos = m.start()
        if b[pos] != 0x3D:
            return name, b"", pos
    pos += 1  # past '='
    m = _NOT_WS.search(b, pos)
    if m is None:
        raise _EndOfInput
    pos = m.start()
    c = b[pos]
    if c == 0x22 or c == 0x27:  # quoted value
        end = b.find(bytes((c,)), pos + 1)
        if end < 0:
            raise _EndOfInput
        return name, b[pos + 1:end].lower(), end + 1
    if c == 0x3E:
        return name, b"", pos
    value = _UNQUOTED_VALUE.match(b, pos)
    assert value is not None  # it matches the empty string too
    if value.end() >= len(b):
        raise _EndOfInput
    return name, value.group().lower(), value.end()


def _charset_from_content(s: bytes) -> str | None:
    """"Extracting a character encoding from a meta element" (a content= value)."""
    s = s.lower()
    pos = 0
    while True:
        i = s.find(b"charset", pos)
        if i < 0:
            return None
        pos = i + 7
        while pos < len(s) and s[pos] in _WS:
            pos += 1
        if pos < len(s) and s[pos] == 0x3D:
            pos += 1
            break
    while pos < len(s) and s[pos] in _WS:
        pos += 1
    if pos >= len(s):
        return None
    c = s[pos]
    if c == 0x22 or c == 0x27:
        end = s.find(bytes((c,)), pos + 1)
        return None if end < 0 else _label_to_name(s[pos + 1:end])
    end = pos
    while end < len(s) and s[end] not in _WS and s[end] != 0x3B:  # ';'
        end += 1
    return _label_to_name(s[pos:end])


def _xml_encoding(b: bytes) -> str | None:
    """"Get an XML encoding": <?xml ... encoding="label"?> at the very start."""
    if not b.startswith(b"<?xml"):
        return None
    gt = b.find(b">")
    if gt < 0:
        return None
    decl = b[:gt]
    pos = decl.find(b"encoding")
    if pos < 0:
        return None
    pos += 8
    while pos < len(decl) and decl[pos] <= 0x20:
        pos += 1
    if pos >= len(decl) or decl[pos] != 0x3D:
        return None
    pos += 1
    while pos < len(decl) and decl[pos] <= 0x20:
        pos += 1
    if pos >= len(decl) or decl[pos] not in (0x22, 0x27):
        return None
    end = decl.find(decl[pos:pos + 1], pos + 1)
    if end < 0:
        return None
    label = decl[pos + 1:end]
    if any(c <= 0x20 for c in label):
        return None
    name = _label_to_name(label)
    return "utf-8" if name in _UTF16 else name
