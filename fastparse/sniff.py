"""What a body served as text/html really is: html, xml, json, text or binary.

Servers label feeds, API responses, images and error pages text/html; a
rewriter or a scraper must not parse those as HTML. The rules follow the
WHATWG MIME Sniffing Standard (https://mimesniff.spec.whatwg.org/: "rules for
identifying an unknown MIME type", its binary data bytes, its byte patterns
for images, archives and fonts) and what archive rewriters check before
rewriting a text/html body (webrecorder/pywb#428: markup must start with '<'):
only the start of the body matters.

In order:
1. Empty -> "text".
2. Bytes only: a known file signature at offset 0 (PNG, GIF, JPEG, WebP, PDF,
   ZIP, gzip, ...) -> "binary".
3. A BOM is skipped (UTF-16 is decoded; UTF-8's as often as it repeats), then
   ASCII whitespace. UTF-16 without a BOM is decoded too, when its start has
   the shape parse() reads as such (fastparse.encoding's "utf16-pattern").
4. Markup: comments and processing instructions are skipped; an XML
   declaration, a doctype other than html, a namespaced or well-known XML
   root (rss, feed, svg, urlset...) or an unknown root after an XML
   declaration -> "xml"; a doctype html, any other tag, "<!--" or "</"
   -> "html" (so XHTML served as text/html is "html").
5. "{" or "[" starting a valid JSON prefix (an anti-XSSI ")]}'" line may
   come first) -> "json".
6. "-----BEGIN" (PEM) -> "text".
7. Bytes only: a binary data byte (0x00-0x08, 0x0B, 0x0E-0x1A, 0x1C-0x1F)
   in the first 1445 bytes -> "binary".
8. Otherwise -> "text".
A str is never "binary": it was already decoded, so steps 2 and 7 are skipped.
"""

from __future__ import annotations

import re

from . import _core

__all__ = ["sniff"]

_HEAD_CHARS = 4096  # how much of the body the markup and JSON rules read
_RESOURCE_HEADER = 1445  # MIME Sniffing: the bytes a sniffer may read

# File signatures at offset 0 (MIME Sniffing sections 6.1-6.4 plus common
# archives). Two-byte ASCII signatures ("BM", "MZ") are left out: prose can
# start with them, and real files are caught by their binary bytes.
_SIGNATURES = (
    b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"%PDF-",
    b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08", b"\x1f\x8b\x08",
    b"\xfd7zXZ\x00", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07", b"\x28\xb5\x2f\xfd",
    b"\x00\x00\x01\x00", b"\x00\x00\x02\x00", b"OggS\x00", b"fLaC", b"\x1aE\xdf\xa3",
    b"wOFF", b"wOF2", b"\x00\x01\x00\x00\x00", b"\x00asm", b"\x7fELF",
    b"\xca\xfe\xba\xbe", b"\xcf\xfa\xed\xfe", b"SQLite format 3\x00",
)
_RIFF_KINDS = (b"WEBP", b"WAVE", b"AVI ")
_BINARY_BYTE = re.compile(rb"[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]")
_WS = "\t\n\x0c\r "

# Root elements of XML vocabularies that are also served as text/html.
_XML_ROOTS = frozenset({
    "rss", "feed", "rdf", "urlset", "sitemapindex", "svg", "plist", "opml",
    "kml", "gpx", "smil", "xsl", "wsdl", "soap",
})
_TAG = re.compile(r"<(/?)([A-Za-z][^\t\n\x0c\r />]*)")
_DOCTYPE = re.compile(r"<!doctype[\t\n\x0c\r ]+([^\t\n\x0c\r >\[]*)", re.IGNORECASE)
_XSSI_PREFIX = re.compile(r"\)\]\}'[^\n]*\n")


def sniff(data) -> str:
    """Classify a text/html body: "html", "xml", "json", "text" or "binary"."""
    if isinstance(data, str):
        text = data[:_HEAD_CHARS].lstrip("\ufeff")
        return _sniff_text(text.lstrip(_WS), len(data) > _HEAD_CHARS) or "text"
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"sniff() needs str, bytes, bytearray or memoryview, not {type(data).__name__}")
    view = memoryview(data)
    if not view.c_contiguous:   # a strided view: its bytes in order, as parse() reads them
        view = memoryview(view.tobytes())
    view = view.cast("B")   # items of any size, counted in bytes
    head = bytes(view[:_HEAD_CHARS])
    if not head:
        return "text"
    truncated = view.nbytes > len(head)
    if _has_signature(head):
        return "binary"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 with a BOM is text by definition (MIME Sniffing 7.1).
        codec = "utf-16-le" if head[0] == 0xFF else "utf-16-be"
        text = head[2:len(head) & ~1].decode(codec, "replace")
        return _sniff_text(text.lstrip(_WS), truncated) or "text"
    wide = _core.utf16_pattern(head)
    if wide is not None:
        # markup in UTF-16 without a BOM, which parse() reads: its NULs are not binary;
        # anything else of that shape (an array of 16-bit numbers) goes on to the byte test
        kind = _sniff_text(head[:len(head) & ~1].decode(wide, "replace").lstrip(_WS), truncated)
        if kind:
            return kind
    while head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]   # templates concatenated with their BOMs put two or more first
    # latin-1 maps bytes 1:1, enough for rules that only read ASCII.
    kind = _sniff_text(head.decode("latin-1").lstrip(_WS), truncated)
    if kind:
        return kind
    return "binary" if _BINARY_BYTE.search(head, 0, _RESOURCE_HEADER) else "text"


def _has_signature(head: bytes) -> bool:
    return (
        head.startswith(_SIGNATURES)
        or (head[:4] == b"RIFF" and head[8:12] in _RIFF_KINDS)
        or head[4:8] == b"ftyp"  # MP4, HEIF, AVIF
        or (head[:3] == b"ID3" and head[3:4] in (b"\x02", b"\x03", b"\x04"))  # MP3
        or (head[:3] == b"BZh" and head[4:10] == b"1AY&SY")  # bzip2
    )


def _sniff_text(s: str, truncated: bool) -> str | None:
    """Rules 4-6 on text starting at its first non-whitespace character.

    `truncated`: `s` is the head of a longer body.
    """
    if not s:
        return "text"
    if s[0] == "<":
        return _sniff_markup(s)
    if s.startswith(")]}'"):
        m = _XSSI_PREFIX.match(s)
        if m and s[m.end():].lstrip(_WS)[:1] in ("{", "["):
            return "json" if _json_prefix(s[m.end():].lstrip(_WS), truncated) else None
    if s[0] in "{[":
        return "json" if _json_prefix(s, truncated) else None
    if s.startswith("-----BEGIN"):
        return "text"
    return None


def _sniff_markup(s: str) -> str | None:
    """Skip the prolog (comments, <?...?>, whitespace), then judge the first tag."""
    xml_decl = False
    pos = 0
    while True:
        if s.startswith("<!--", pos):
            end = s.find("-->", pos + 4)
            if end < 0:
                return "html"  # an unclosed comment: the MIME sniffer's "<!--" rule
            pos = end + 3
        elif s.startswith("<?", pos):
            xml_decl = xml_decl or s[pos:pos + 6].lower() in ("<?xml ", "<?xml?")
            end = s.find(">", pos)
            if end < 0:
                return "xml" if xml_decl else None
            pos = end + 1
        else:
            break
        while pos < len(s) and s[pos] in _WS:
            pos += 1
        if pos >= len(s):
            return "xml" if xml_decl else "html"
    doctype = _DOCTYPE.match(s, pos)
    if doctype:
        return "html" if doctype.group(1).lower() == "html" else "xml"
    if s.startswith("<![CDATA[", pos):
        return "xml"
    tag = _TAG.match(s, pos)
    if tag is None:
        if s.startswith("<!", pos):
            return "html"  # a bogus comment, as the HTML tokenizer reads it
        return "xml" if xml_decl else None  # "< 5" is not markup
    name = tag.group(2).lower()
    if tag.group(1) or name in _HTML_TAGS:
        return "html"
    if ":" in name or name in _XML_ROOTS or xml_decl:
        return "xml"
    return "html"  # a custom element or an unknown tag: the HTML parser's business


# The elements of the HTML Standard plus obsolete ones browsers still parse
# (section 16.2 and 16.3); svg and math are left out: as a root they are XML.
_HTML_TAGS = frozenset((
    "a", "abbr", "acronym", "address", "applet", "area", "article", "aside", "audio",
    "b", "base", "basefont", "bdi", "bdo", "bgsound", "big", "blink", "blockquote",
    "body", "br", "button", "canvas", "caption", "center", "cite", "code", "col",
    "colgroup", "data", "datalist", "dd", "del", "details", "dfn", "dialog", "dir",
    "div", "dl", "dt", "em", "embed", "fieldset", "figcaption", "figure", "font",
    "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head",
    "header", "hgroup", "hr", "html", "i", "iframe", "image", "img", "input", "ins",
    "isindex", "kbd", "keygen", "label", "legend", "li", "link", "listing", "main",
    "map", "mark", "marquee", "menu", "menuitem", "meta", "meter", "multicol", "nav",
    "nextid", "nobr", "noembed", "noframes", "noscript", "object", "ol", "optgroup",
    "option", "output", "p", "param", "picture", "plaintext", "pre", "progress", "q",
    "rb", "rp", "rt", "rtc", "ruby", "s", "samp", "script", "search", "section",
    "select", "slot", "small", "source", "spacer", "span", "strike", "strong", "style",
    "sub", "summary", "sup", "table", "tbody", "td", "template", "textarea", "tfoot",
    "th", "thead", "time", "title", "tr", "track", "tt", "u", "ul", "var", "video",
    "wbr", "xmp",
))


# ---- a JSON prefix checker ----
# Reads tokens until the head ends or something that cannot be JSON appears.
# A head cut from a longer body may end inside a token: that is still JSON.

_JSON_TOKEN = re.compile(r"""
    [\t\n\r ]*+
    (?:
        (?P<punct>[{}\[\]:,])
      | (?P<string>"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+(?P<closed>")?)
      | (?P<number>-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?+(?:[eE][+-]?[0-9]++)?+)
      | (?P<word>true|false|null)
    )""", re.VERBOSE)
_CUT_TOKEN_CHARS = 16  # a failure this close to a cut end may be a cut token


def _json_prefix(s: str, truncated: bool) -> bool:
    """True when `s` is JSON (or, cut, a prefix of it) with an object or array on top."""
    stop = _json_error_at(s)
    return stop < 0 or (truncated and stop >= len(s) - _CUT_TOKEN_CHARS)


def _json_error_at(s: str) -> int:
    """Where `s` stops being JSON text, or -1 when it never does."""
    stack: list[str] = []  # the open "{" and "["
    expect = "value"  # value | key | colon | comma | value-or-close | key-or-close
    pos = 0
    while True:
        m = _JSON_TOKEN.match(s, pos)
        if m is None:
            return -1 if not s[pos:].strip("\t\n\r ") else pos
        start, pos = pos, m.end()
        if m.group("string") is not None:
            if m.group("closed") is None:
                # Open to the end: a cut string. Stopped early: a control
                # character or a bad escape (maybe a cut one, at a cut end).
                return -1 if pos == len(s) else pos
            if expect in ("key", "key-or-close"):
                expect = "colon"
                continue
        token = m.group("punct")
        if token is None:  # a string, number or literal used as a value
            if expect not in ("value", "value-or-close") or not stack:
                return start
            expect = "comma"
        elif token in "{[":
            if expect not in ("value", "value-or-close"):
                return start
            stack.append(token)
            expect = "key-or-close" if token == "{" else "value-or-close"
        elif token in "}]":
            opener = "{" if token == "}" else "["
            if not stack or stack.pop() != opener or expect not in ("comma", "key-or-close" if opener == "{" else "value-or-close"):
                return start
            expect = "comma" if stack else "value"  # JSON Lines: another value may follow
        elif token == ":":
            if expect != "colon":
                return start
            expect = "value"
        else:  # ","
            if expect != "comma":
                return start
            expect = "key" if stack[-1] == "{" else "value"
