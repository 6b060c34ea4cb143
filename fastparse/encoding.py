"""Which encoding a byte string is in, decided the way a browser decides it.

The C engine parses UTF-8 or an ASCII-compatible legacy encoding as is, so for
bytes input all it needs is a name: `detect()` answers with a `Detection`.
It follows the HTML Standard's encoding sniffing algorithm
(https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm):

1. A byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins.            source "bom"
2. The caller's ``encoding=`` label, a transport-layer hint such as an HTTP
   charset, is obeyed whatever the bytes say.                      source "hint"
3. The meta prescan of the first 1024 bytes ("prescan a byte stream to
   determine its encoding", then "get an XML encoding"), step for step.
   A <meta> naming UTF-16 means UTF-8 and x-user-defined means
   windows-1252, as the spec says.                                 source "meta"
4. The fallback: UTF-16 when the first 32 code units have the shape
   of an HTML document in UTF-16 without a BOM (source "utf16-pattern":
   the first a '<' or whitespace with a zero high byte, as a quarter of
   them have, none NUL; fastparse/_core/detect.c); else UTF-8 when the
   bytes validate as UTF-8.                                        source "fallback"
   But 7-bit bytes with a run of JIS X 0208 in their first MiB (ESC $ B or
   ESC $ @, pairs of bytes, ESC ( B or ESC ( J) are ISO-2022-JP, as browsers'
   detectors take them: no ASCII page holds such a run, and as UTF-8 the
   Japanese reads as escapes and letters, its "<" making tags.     source "guess"
   The spec leaves this step's autodetection to the user agent; the UTF-16
   shape is as certain as the UTF-8 check (an ASCII-compatible page never has
   NUL at every other byte) and comes first, since ASCII with NULs between
   is valid UTF-8: without it such a page read "<\0h\0t\0m\0l\0".

5. Bytes that are not UTF-8 and declare nothing, not even late (below):
   the guess, the autodetection browsers do there. A page whose bytes read
   as UTF-8 but for a stray byte, as Japanese, Korean or Chinese text in
   Shift_JIS, EUC-JP, EUC-KR, GBK or Big5, as Cyrillic words in
   windows-1251 or KOI8-R, or as Greek, Hebrew, Arabic or Thai text in their
   Windows code pages, is taken as that encoding
   (fastparse/_encoding_guess.py: how little doubt each test leaves); any
   other is windows-1252.                       source "guess", or "fallback"

Two real-world rules refine steps 3 and 4, because pages lie about themselves:

* A <meta> (or XML declaration) naming a legacy encoding loses to UTF-8 when
  the whole document is valid UTF-8 and has non-ASCII bytes (source
  "utf8-valid"). A legacy multi-byte or high-half text almost never validates
  as UTF-8 by chance, while pages re-encoded to UTF-8 by a CMS or a crawler
  keep their old <meta>: readability's qq/source.html declares gb2312 and is
  UTF-8. A pure-ASCII document keeps its declared name (the text is the same).
* When no early declaration exists and the bytes are not UTF-8, the prescan is
  run again over the head of the document (up to ``<body`` or 64 KiB), which is
  what a browser's "change the encoding while parsing" does when its tree
  builder meets a later <meta charset> (source "late-meta"). Real pages put
  the <meta> after 1 KB of scripts (the gb2312 and windows-1250 pages of the
  trafilatura corpus). It only runs on this rare path.

Labels are mapped by the Encoding Standard's table to a WHATWG name and a
Python codec. Two WHATWG encodings have no Python codec, and Python's codecs of
the others read or write some characters differently, so this module registers
these (``codecs.register``, at import):

* "x-user-defined": bytes 0x80-0xFF decode to U+F780-U+F7FF.
* "replacement" (labels iso-2022-kr, hz-gb-2312, iso-2022-cn...): the spec
  maps these to an encoding that decodes any non-empty input to one U+FFFD,
  so a stream in a 7-bit escape encoding can never be read as ASCII markup.
  Its codec is named "whatwg-replacement"; a document in it parses as "\\ufffd".
* "whatwg-shift_jis": cp932's decoder, and an encoder that writes the 373
  kanji and symbols that cp932 writes in the NEC-selected IBM extension rows
  (e.g. 髙 as EE E0) with their IBM extension bytes (FB FC), as the Encoding
  Standard's encoder and Windows do: a selector or find() string is compared with a page's bytes
  in its encoding, and real pages carry the IBM spelling. (tag.get() compares
  decoded names when the bytes miss, so it finds either spelling.)
* "whatwg-big5": big5hkscs's decoder, and an encoder that writes ／ ＼ ╭ ╮ ╰ ╯
  as the Encoding Standard and cp950 do (A1FE, A240, A27E...), not as
  big5hkscs does (A241, A242, F9FA...).
* "whatwg-euc-jp", "whatwg-euc-kr", "whatwg-gb18030": euc_jp, cp949 and
  gb18030. These five multi-byte codecs read errors="replace" as the Encoding
  Standard's decoders read malformed bytes, and EUC-JP has the index's NEC and
  IBM rows and Windows' symbols (fastparse/_legacy_codecs.py).
* "whatwg-iso-2022-jp": the Encoding Standard's ISO-2022-JP decoder, state by
  state (fastparse/_core/iso2022jp.c, which to_utf8 runs straight to UTF-8), and
  iso2022_jp's encoder.

The windows-* encodings decode with "whatwg-windows-1252" and the like: Python's
cp1252... with each byte of 0x80-0x9F it leaves undefined decoded as the C1
control of its value, as the spec's indexes have them (cp1252's 0x81 0x8D 0x8F
0x90 0x9D are U+0081...; windows-1256 has no such byte and keeps cp1256).

"whatwg-windows-1255" also reads 0xCA as U+05BA, which cp1255 leaves undefined,
and "whatwg-koi8-u" reads 0xAE and 0xBE as ў and Ў (the Encoding Standard's
KOI8-U is KOI8-RU): with them, every high byte of every single-byte encoding
decodes as web-platform-tests' decoder tests expect (tests/test_encoding.py).
Decode with errors="replace".
"""

from __future__ import annotations

import codecs
import importlib
from functools import cache
from typing import NamedTuple

from . import _core, _legacy_codecs
from ._encoding_guess import guess

# prescan(data, limit=None) -> WHATWG name or None: fastparse/_core/prescan.c
_prescan = _core.prescan

__all__ = ["Detection", "detect", "lookup", "prescan", "to_utf8"]

# The Encoding Standard, section 4.2 "Names and labels"
# (https://encoding.spec.whatwg.org/#names-and-labels; also its encodings.json):
# every encoding, in the spec's order, with the Python codec that decodes it and
# all of its labels. GBK decodes with the gb18030 decoder, Big5 includes HKSCS,
# Shift_JIS is Windows-31J and EUC-KR is windows-949, as in the spec.
_ENCODINGS: dict[str, tuple[str, tuple[str, ...]]] = {
    # The Encoding
    "utf-8": ("utf-8", (
        "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
        "x-unicode20utf8")),
    # Legacy single-byte encodings
    "ibm866": ("cp866", ("866", "cp866", "csibm866", "ibm866")),
    "iso-8859-2": ("iso8859-2", (
        "csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
        "iso_8859-2", "iso_8859-2:1987", "l2", "latin2")),
    "iso-8859-3": ("iso8859-3", (
        "csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
        "iso_8859-3", "iso_8859-3:1988", "l3", "latin3")),
    "iso-8859-4": ("iso8859-4", (
        "csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
        "iso_8859-4", "iso_8859-4:1988", "l4", "latin4")),
    "iso-8859-5": ("iso8859-5", (
        "csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
        "iso88595", "iso_8859-5", "iso_8859-5:1988")),
    "iso-8859-6": ("iso8859-6", (
        "arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
        "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127",
        "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987")),
    "iso-8859-7": ("iso8859-7", (
        "csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
        "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987",
        "sun_eu_greek")),
    "iso-8859-8": ("iso8859-8", (
        "csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
        "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988",
        "visual")),
    "iso-8859-8-i": ("iso8859-8", ("csiso88598i", "iso-8859-8-i", "logical")),
    "iso-8859-10": ("iso8859-10", (
        "csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910",
        "l6", "latin6")),
    "iso-8859-13": ("iso8859-13", ("iso-8859-13", "iso8859-13", "iso885913")),
    "iso-8859-14": ("iso8859-14", ("iso-8859-14", "iso8859-14", "iso885914")),
    "iso-8859-15": ("iso8859-15", (
        "csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
        "l9")),
    "iso-8859-16": ("iso8859-16", ("iso-8859-16",)),
    "koi8-r": ("koi8-r", ("cskoi8r", "koi", "koi8", "koi8-r", "koi8_r")),
    "koi8-u": ("whatwg-koi8-u", ("koi8-ru", "koi8-u")),
    "macintosh": ("mac-roman", ("csmacintosh", "mac", "macintosh", "x-mac-roman")),
    "windows-874": ("whatwg-windows-874", (
        "dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620",
        "windows-874")),
    "windows-1250": ("whatwg-windows-1250", ("cp1250", "windows-1250", "x-cp1250")),
    "windows-1251": ("whatwg-windows-1251", ("cp1251", "windows-1251", "x-cp1251")),
    "windows-1252": ("whatwg-windows-1252", (
        "ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819",
        "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
        "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252")),
    "windows-1253": ("whatwg-windows-1253", ("cp1253", "windows-1253", "x-cp1253")),
    "windows-1254": ("whatwg-windows-1254", (
        "cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9",
        "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5",
        "windows-1254", "x-cp1254")),
    "windows-1255": ("whatwg-windows-1255", ("cp1255", "windows-1255", "x-cp1255")),
    "windows-1256": ("cp1256", ("cp1256", "windows-1256", "x-cp1256")),
    "windows-1257": ("whatwg-windows-1257", ("cp1257", "windows-1257", "x-cp1257")),
    "windows-1258": ("whatwg-windows-1258", ("cp1258", "windows-1258", "x-cp1258")),
    "x-mac-cyrillic": ("mac-cyrillic", ("x-mac-cyrillic", "x-mac-ukrainian")),
    # Legacy multi-byte Chinese (simplified) encodings
    "gbk": ("whatwg-gb18030", (
        "chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80",
        "gbk", "iso-ir-58", "x-gbk")),
    "gb18030": ("whatwg-gb18030", ("gb18030",)),
    # Legacy multi-byte Chinese (traditional) encodings
    "big5": ("whatwg-big5", ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5")),
    # Legacy multi-byte Japanese encodings
    "euc-jp": ("whatwg-euc-jp", ("cseucpkdfmtjapanese", "euc-jp", "x-euc-jp")),
    "iso-2022-jp": ("whatwg-iso-2022-jp", ("csiso2022jp", "iso-2022-jp")),
    "shift_jis": ("whatwg-shift_jis", (
        "csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
        "windows-31j", "x-sjis")),
    # Legacy multi-byte Korean encodings
    "euc-kr": ("whatwg-euc-kr", (
        "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean",
        "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949")),
    # Legacy miscellaneous encodings
    "replacement": ("whatwg-replacement", (
        "csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr",
        "replacement")),
    "utf-16be": ("utf-16-be", ("unicodefffe", "utf-16be")),
    "utf-16le": ("utf-16-le", (
        "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16",
        "utf-16le")),
    "x-user-defined": ("x-user-defined", ("x-user-defined",)),
}

_LABELS: dict[str, str] = {
    label: name for name, (_, labels) in _ENCODINGS.items() for label in labels
}
_UTF16 = frozenset({"utf-16le", "utf-16be"})
# Encodings the engine cannot scan as is: '<' may not be the byte 0x3C, or
# ASCII bytes change meaning after an escape sequence.
_TRANSCODE = _UTF16 | {"iso-2022-jp", "replacement"}
_ASCII_WHITESPACE = "\t\n\x0c\r "


def lookup(label: str) -> tuple[str, str]:
    """(WHATWG name, Python codec) for an encoding label, per the Encoding Standard.

    ASCII whitespace around the label is ignored and case is ASCII-insensitive,
    so "  Latin1 " names windows-1252. An unknown label raises LookupError.
    """
    if not isinstance(label, str):
        raise TypeError(f"encoding label must be str, not {type(label).__name__}")
    # ASCII-only first: str.lower() would fold e.g. KELVIN SIGN to "k".
    key = label.strip(_ASCII_WHITESPACE)
    name = _LABELS.get(key.lower()) if key.isascii() else None
    if name is None:
        raise LookupError(
            f"unknown encoding label {label!r} "
            "(not a label of the WHATWG Encoding Standard)")
    return name, _ENCODINGS[name][0]


def _label_to_name(label: bytes) -> str | None:
    """The spec's "get an encoding" on bytes from the document; None is failure."""
    key = label.strip(b"\t\n\x0c\r ").lower()
    return _LABELS.get(key.decode("latin-1")) if key.isascii() else None


class Detection(NamedTuple):
    """What detect() decided, and what the caller must do with the bytes."""

    name: str        # WHATWG name: 'utf-8', 'windows-1251', 'shift_jis', ...
    codec: str       # Python codec that decodes the input bytes
    bom: bytes       # byte order mark to skip (b"" when none)
    source: str      # "bom" | "hint" | "meta" | "late-meta" | "utf8-valid" | "utf16-pattern" | "guess" | "fallback"
    legacy: bool     # ASCII-compatible non-UTF-8: the engine parses the bytes as is
    utf16: bool      # UTF-16LE/BE: transcode to UTF-8 before parsing
    transcode: bool  # utf16, ISO-2022-JP or replacement: use to_utf8() first


@cache  # a few dozen distinct answers; a Detection is immutable
def _result(name: str, source: str, bom: bytes = b"") -> Detection:
    transcode = name in _TRANSCODE
    return Detection(name, _ENCODINGS[name][0], bom, source,
                     not transcode and name != "utf-8", name in _UTF16, transcode)


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xfe\xff", "utf-16be"), (b"\xff\xfe", "utf-16le"))
_BOM_PREFIXES = tuple(bom for bom, _ in _BOMS)
_PRESCAN_BYTES = _core.PRESCAN_BYTES   # 1024, as the spec says

# parse()'s C fast path (bytes alone or with encoding=; py_module.c) decides as
# detect() does (calling the guess where detect() would), parses these encodings
# as is and transcodes UTF-16 as to_utf8() does; it leaves ISO-2022-JP and
# replacement to detect()
_core._set_legacy_codecs({name: (name, codec) for name, (codec, _) in _ENCODINGS.items()
                          if name != "utf-8" and name not in _TRANSCODE})
_core._set_guess(guess)   # for bytes that are not UTF-8 and declare nothing


def _utf8_state(data) -> int:
    """0: not UTF-8, 1: pure ASCII, 2: valid UTF-8 with non-ASCII bytes."""
    return _core.utf8_check(data)


def detect(data, hint: str | None = None) -> Detection:
    """Decide the encoding of an HTML document given as bytes (see the module doc).

    `data` is bytes, bytearray or a memoryview of bytes; `hint` is a label
    from the transport layer (LookupError when unknown). The prescan reads
    the first 1024 bytes (the head of the document, at most 64 KiB, only when
    the bytes are not UTF-8 and declared nothing early); the whole input is
    read only by the C UTF-8 check, and not at all when the prescan finds UTF-8.
    Bytes that are not UTF-8 and declare nothing are guessed from the text in
    their first MiB (fastparse/_encoding_guess.py).
    """
    if isinstance(data, memoryview):   # its bytes in order, as parse() reads them
        data = data.cast("B") if data.c_contiguous else memoryview(data.tobytes())
    elif not isinstance(data, (bytes, bytearray)):
        raise TypeError(f"detect() needs bytes-like data, not {type(data).__name__}")

    # An unknown label is an error even when a BOM makes the hint moot.
    hinted = lookup(hint)[0] if hint is not None else None
    start = bytes(data[:3])
    if start.startswith(_BOM_PREFIXES):
        for bom, bom_name in _BOMS:
            if start.startswith(bom):
                return _result(bom_name, "bom", bom)
    if hinted is not None:
        return _result(hinted, "hint")

    name = _prescan(data, _PRESCAN_BYTES)
    if name is not None:
        if name != "utf-8" and name not in _UTF16 and _utf8_state(data) == 2:
            return _result("utf-8", "utf8-valid")
        return _result(name, "meta")

    wide = _core.utf16_pattern(data)
    if wide is not None:
        return _result(wide, "utf16-pattern")
    state = _utf8_state(data)
    if state == 1 and _core.iso2022jp_escapes(data):
        return _result("iso-2022-jp", "guess")   # 7-bit, with escapes to JIS X 0208
    if state:
        return _result("utf-8", "fallback")
    late = _core.late_meta(data)   # the prescan over the document's head, up to its <body
    if late is not None:
        return _result(late, "late-meta")
    guessed = guess(data)
    if guessed is not None:
        return _result(guessed, "guess")
    return _result("windows-1252", "fallback")


def to_utf8(data, detection: Detection) -> bytes:
    """The document as UTF-8, for an encoding the engine cannot parse as is.

    Skips the BOM; malformed sequences become U+FFFD as in a browser.
    """
    body = memoryview(data).cast("B")[len(detection.bom):]
    if detection.name == "iso-2022-jp":   # straight to UTF-8, without the GIL
        return _core.iso2022jp_to_utf8(body)[0]
    return str(body, detection.codec, "replace").encode("utf-8")


# ---- the HTML Standard's prescan, section 13.2.3.2 ----
# https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding

def prescan(head) -> str | None:
    """The encoding the document declares in `head` (bytes-like, read whole), or None.

    "Prescan a byte stream to determine its encoding" and, when it finds
    nothing, "get an XML encoding"; running out of bytes is the end condition.
    The answer is a WHATWG name with the spec's substitutions made (UTF-16
    named in a <meta> means UTF-8, x-user-defined means windows-1252).
    The C engine runs it: fastparse/_core/prescan.c (tests/prescan_reference.py is
    the same algorithm in Python, step for step, that the tests check it against).
    """
    return _prescan(head)


# ---- codecs for the two WHATWG encodings Python lacks ----

_X_USER_DEFINED = "".join(chr(i) if i < 0x80 else chr(0xF700 + i) for i in range(256))
_X_USER_DEFINED_ENCODE = codecs.charmap_build(_X_USER_DEFINED)


def _x_user_defined_decode(data, errors="strict"):
    return codecs.charmap_decode(data, errors, _X_USER_DEFINED)


def _x_user_defined_encode(text, errors="strict"):
    return codecs.charmap_encode(text, errors, _X_USER_DEFINED_ENCODE)


def _replacement_decode(data, errors="strict"):
    # The spec's replacement decoder: one U+FFFD for the whole non-empty stream.
    n = len(memoryview(data))
    return ("\ufffd" if n else ""), n


def _replacement_encode(text, errors="strict"):
    # Its output encoding is UTF-8 (Encoding Standard, "get an output encoding").
    return codecs.utf_8_encode(text, errors)


def _spec_spellings(codec: str, leads, skipped_leads, last_for: str = "") -> dict[str, bytes]:
    """The characters that `codec` writes otherwise than the Encoding Standard's encoder,
    with the spec's bytes. Among a character's two-byte spellings the spec's index skips
    those with a lead byte in `skipped_leads` and takes the first (the last for the
    characters in `last_for`)."""
    spellings: dict[str, list[bytes]] = {}
    for lead in leads:
        for trail in range(0x40, 0xFF):
            b = bytes((lead, trail))
            try:
                ch = b.decode(codec)
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                spellings.setdefault(ch, []).append(b)
    out = {}
    for ch, forms in spellings.items():
        kept = [f for f in forms if f[0] not in skipped_leads]
        if len(forms) > 1 and kept:
            want = max(kept) if ch in last_for else min(kept)
            if ch.encode(codec) != want:
                out[ch] = want
    return out


def _spec_encoder(codec: str, spellings):
    """An encoder that writes `codec`'s bytes but for the characters spellings() maps."""
    base = codecs.lookup(codec).encode

    def encode(text, errors="strict"):
        if text.isascii():   # most calls (attribute names): no table, which takes ~50 ms to build
            return base(text, errors)
        table = spellings()
        if not any(ch in table for ch in text):
            return base(text, errors)
        return b"".join(table.get(ch) or base(ch, errors)[0] for ch in text), len(text)
    return encode


# Shift_JIS: 373 kanji and symbols that cp932 writes in the NEC-selected IBM extension rows
# (lead bytes ED, EE), which the spec's index leaves out for the IBM extensions (FA-FC).
_sjis_spellings = cache(lambda: _spec_spellings(
    "cp932", [*range(0x81, 0xA0), *range(0xE0, 0xFD)], {0xED, 0xEE}))
# Big5: the spec's index leaves out HKSCS's lead bytes below A1 and writes six characters with
# their last pointer; big5hkscs differs on six (／ ＼ and four rounded box corners), as cp950 does not.
_big5_spellings = cache(lambda: {**_spec_spellings(
    "big5hkscs", range(0x81, 0xFF), set(range(0x81, 0xA1)), "\u2550\u255e\u2561\u256a\u5341\u5345"),
    **{cp950: pair for pair, (_, cp950) in _legacy_codecs.BIG5_SYMBOLS.items()}})   # the symbols it reads


def _spec_charmap(codec: str, name: str, patches: dict[int, str] | None = None) -> codecs.CodecInfo:
    """`codec` (a charmap codec of Python's) with each byte 0x80-0x9F it leaves
    undefined decoded as the C1 control of its value, and the bytes `patches`
    maps decoded as the Encoding Standard's index has them."""
    base = importlib.import_module(f"encodings.{codec}").decoding_table
    table = "".join((patches or {}).get(b) or (chr(b) if ch == "\ufffe" and 0x80 <= b <= 0x9F else ch)
                    for b, ch in enumerate(base))
    encoding_table = codecs.charmap_build(table)

    def encode(text, errors="strict"):
        return codecs.charmap_encode(text, errors, encoding_table)

    def decode(data, errors="strict"):
        return codecs.charmap_decode(data, errors, table)
    return codecs.CodecInfo(encode, decode, name=name)


# Where Python's tables and the Encoding Standard's indexes differ (web-platform-tests'
# single-byte decoder expectations, every high byte of every encoding, agree with these):
# windows-1255 has U+05BA at 0xCA; KOI8-U is the Encoding Standard's KOI8-RU, with
# Belarusian ў and Ў at 0xAE and 0xBE where koi8_u has box drawings.
_INDEX_PATCHES = {"cp1255": {0xCA: "\u05ba"}, "koi8_u": {0xAE: "\u045e", 0xBE: "\u040e"}}

_CODECS = {
    **{f"whatwg_windows_{cp[2:]}": _spec_charmap(cp, f"whatwg-windows-{cp[2:]}", _INDEX_PATCHES.get(cp))
       for cp in ("cp874", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1257", "cp1258")},
    "whatwg_koi8_u": _spec_charmap("koi8_u", "whatwg-koi8-u", _INDEX_PATCHES["koi8_u"]),
    "whatwg_shift_jis": codecs.CodecInfo(_spec_encoder("cp932", _sjis_spellings),
                                         _legacy_codecs.shift_jis_decode, name="whatwg-shift_jis"),
    "whatwg_euc_jp": codecs.CodecInfo(_spec_encoder("euc_jp", cache(_legacy_codecs.euc_jp_spellings)),
                                      _legacy_codecs.euc_jp_decode, name="whatwg-euc-jp"),
    "whatwg_big5": codecs.CodecInfo(_spec_encoder("big5hkscs", _big5_spellings),
                                    _legacy_codecs.big5_decode, name="whatwg-big5"),
    "whatwg_iso_2022_jp": codecs.CodecInfo(codecs.lookup("iso2022_jp").encode, _legacy_codecs.iso_2022_jp_decode,
                                           name="whatwg-iso-2022-jp"),
    "whatwg_euc_kr": codecs.CodecInfo(codecs.lookup("cp949").encode, _legacy_codecs.euc_kr_decode,
                                      name="whatwg-euc-kr"),
    "whatwg_gb18030": codecs.CodecInfo(_spec_encoder("gb18030", _legacy_codecs.gb18030_spellings),
                                       _legacy_codecs.gb18030_decode, name="whatwg-gb18030"),
    "x_user_defined": codecs.CodecInfo(
        _x_user_defined_encode, _x_user_defined_decode, name="x-user-defined"),
    "whatwg_replacement": codecs.CodecInfo(
        _replacement_encode, _replacement_decode, name="whatwg-replacement"),
}


def _search_codec(normalized_name: str):
    return _CODECS.get(normalized_name.replace("-", "_"))


codecs.register(_search_codec)
