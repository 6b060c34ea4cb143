"""Encoding detection for bytes input: the WHATWG label table, BOM, hint,
meta prescan, fallback, and the real pages of ../shared/corpora."""

from __future__ import annotations

import codecs
import collections
import csv
import html
import importlib.util
import itertools
import random
import re
from pathlib import Path

import pytest
from iso2022jp_reference import iso2022jp_reference
from prescan_reference import _TAG_ATTRIBUTES, _EndOfInput, _get_attribute, prescan_reference

import fastparse as fp
from fastparse import _core, encoding
from fastparse.encoding import detect, lookup, prescan, to_utf8

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"


def _py_utf8_check(data) -> int:
    """Reference for fastparse._core.utf8_check: 0 invalid, 1 ASCII, 2 UTF-8."""
    raw = bytes(data)
    if raw.isascii():
        return 1
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return 0
    return 2


@pytest.fixture(autouse=True)
def _utf8_check(monkeypatch):
    # Until the engine provides utf8_check, detect() validates with Python.
    try:
        from fastparse._core import utf8_check  # noqa: F401
    except ImportError:
        monkeypatch.setattr(encoding, "_utf8_state", _py_utf8_check)


# ---- the label table ----

# Two or more labels of every encoding of the Encoding Standard.
SAMPLE_LABELS = {
    "unicode-1-1-utf-8": "utf-8", "utf8": "utf-8", "x-unicode20utf8": "utf-8",
    "866": "ibm866", "csibm866": "ibm866",
    "latin2": "iso-8859-2", "iso_8859-2:1987": "iso-8859-2",
    "l3": "iso-8859-3", "iso-ir-109": "iso-8859-3",
    "csisolatin4": "iso-8859-4", "iso88594": "iso-8859-4",
    "cyrillic": "iso-8859-5", "iso_8859-5": "iso-8859-5",
    "arabic": "iso-8859-6", "iso-8859-6-i": "iso-8859-6", "asmo-708": "iso-8859-6",
    "greek8": "iso-8859-7", "sun_eu_greek": "iso-8859-7",
    "visual": "iso-8859-8", "iso-8859-8-e": "iso-8859-8",
    "iso-8859-8-i": "iso-8859-8-i", "logical": "iso-8859-8-i", "csiso88598i": "iso-8859-8-i",
    "latin6": "iso-8859-10", "iso885910": "iso-8859-10",
    "iso8859-13": "iso-8859-13", "iso885914": "iso-8859-14",
    "l9": "iso-8859-15", "csisolatin9": "iso-8859-15", "iso-8859-16": "iso-8859-16",
    "koi": "koi8-r", "koi8_r": "koi8-r", "koi8-ru": "koi8-u", "koi8-u": "koi8-u",
    "mac": "macintosh", "x-mac-roman": "macintosh",
    "tis-620": "windows-874", "iso-8859-11": "windows-874",
    "x-cp1250": "windows-1250", "cp1251": "windows-1251",
    "latin1": "windows-1252", "iso-8859-1": "windows-1252", "ascii": "windows-1252",
    "us-ascii": "windows-1252", "ansi_x3.4-1968": "windows-1252",
    "cp1253": "windows-1253", "latin5": "windows-1254", "iso-8859-9": "windows-1254",
    "x-cp1255": "windows-1255", "cp1256": "windows-1256", "windows-1257": "windows-1257",
    "cp1258": "windows-1258", "x-mac-ukrainian": "x-mac-cyrillic",
    "gb2312": "gbk", "chinese": "gbk", "x-gbk": "gbk", "csgb2312": "gbk",
    "gb18030": "gb18030",
    "big5-hkscs": "big5", "x-x-big5": "big5",
    "cseucpkdfmtjapanese": "euc-jp", "x-euc-jp": "euc-jp",
    "csiso2022jp": "iso-2022-jp",
    "x-sjis": "shift_jis", "csshiftjis": "shift_jis", "ms932": "shift_jis",
    "windows-31j": "shift_jis",
    "korean": "euc-kr", "ks_c_5601-1987": "euc-kr", "windows-949": "euc-kr",
    "iso-2022-kr": "replacement", "hz-gb-2312": "replacement",
    "iso-2022-cn-ext": "replacement", "replacement": "replacement",
    "unicodefffe": "utf-16be", "utf-16be": "utf-16be",
    "utf-16": "utf-16le", "ucs-2": "utf-16le", "unicode": "utf-16le",
    "x-user-defined": "x-user-defined",
}


@pytest.mark.parametrize(("label", "name"), sorted(SAMPLE_LABELS.items()))
def test_label_maps_to_its_encoding(label, name):
    assert lookup(label)[0] == name


def test_sample_covers_every_encoding_and_table_has_spec_size():
    # The Encoding Standard lists 40 encodings with 228 labels between them.
    assert set(SAMPLE_LABELS.values()) == set(encoding._ENCODINGS)
    assert len(encoding._ENCODINGS) == 40
    assert len(encoding._LABELS) == 228


@pytest.mark.parametrize("name", sorted(encoding._ENCODINGS))
def test_every_encoding_has_a_working_python_codec(name):
    assert lookup(name)[0] == name  # the name is one of its own labels
    codec = lookup(name)[1]
    assert codecs.lookup(codec)
    if name not in encoding._TRANSCODE:
        # ASCII-compatible: the engine reads '<' as is, and the binding turns
        # ASCII runs into str without asking the codec (py_document.c)
        assert bytes(range(128)).decode(codec) == bytes(range(128)).decode("ascii")


@pytest.mark.parametrize(("label", "expected"), [
    ("  LATIN1\t\n", ("windows-1252", "whatwg-windows-1252")),
    ("\x0cUtF-8\r", ("utf-8", "utf-8")),
    ("Shift_JIS", ("shift_jis", "whatwg-shift_jis")),
    ("GB2312", ("gbk", "whatwg-gb18030")),
    ("ISO-8859-8-I", ("iso-8859-8-i", "iso8859-8")),
])
def test_lookup_strips_ascii_whitespace_and_ignores_case(label, expected):
    assert lookup(label) == expected


@pytest.mark.parametrize("label", [
    "latin-1",         # a Python codec name, not a WHATWG label
    "utf_8",
    "utf-7",
    "",
    "\x0butf-8",       # vertical tab is not ASCII whitespace
    "\xa0utf-8",       # nor is NO-BREAK SPACE
    "\u212aoi8-r",     # KELVIN SIGN lower-cases to "k" outside ASCII
    "utf-8\x00",
])
def test_unknown_label_raises_lookup_error_quoting_it(label):
    with pytest.raises(LookupError) as info:
        lookup(label)
    assert repr(label) in str(info.value)


def test_lookup_rejects_non_str():
    with pytest.raises(TypeError):
        lookup(b"utf-8")


def test_codecs_for_encodings_python_lacks():
    assert b"a\x80\xff".decode("x-user-defined") == "a\uf780\uf7ff"
    assert "a\uf780\uf7ff".encode("x-user-defined") == b"a\x80\xff"
    assert b"".decode("whatwg-replacement") == ""
    assert b"<script>alert(1)</script>".decode("whatwg-replacement") == "\ufffd"


# ---- BOM and hint ----

@pytest.mark.parametrize(("bom", "name", "utf16"), [
    (b"\xef\xbb\xbf", "utf-8", False),
    (b"\xff\xfe", "utf-16le", True),
    (b"\xfe\xff", "utf-16be", True),
])
def test_bom_wins_over_hint_and_meta(bom, name, utf16):
    data = bom + b'<meta charset="windows-1251"><p>x'
    d = detect(data, hint="koi8-r")
    assert (d.name, d.bom, d.source, d.utf16, d.transcode) == (name, bom, "bom", utf16, utf16)
    assert d.legacy is False


def test_utf16_document_is_transcoded_to_utf8():
    data = b"\xff\xfe" + "<p>é€</p>".encode("utf-16-le")
    d = detect(data)
    assert d.codec == "utf-16-le"
    assert to_utf8(data, d) == "<p>é€</p>".encode()


def test_hint_beats_meta_and_is_obeyed_even_against_valid_utf8():
    data = '<meta charset="windows-1251"><p>é'.encode()
    d = detect(data, hint="ISO-8859-2")
    assert (d.name, d.codec, d.source, d.legacy) == ("iso-8859-2", "iso8859-2", "hint", True)


def test_utf16_hint_needs_transcoding():
    d = detect("<p>x".encode("utf-16-be"), hint="utf-16be")
    assert (d.name, d.bom, d.utf16, d.transcode, d.legacy) == ("utf-16be", b"", True, True, False)


def test_unknown_hint_raises_even_with_a_bom():
    with pytest.raises(LookupError, match="'klingon'"):
        detect(b"\xef\xbb\xbf<p>", hint="klingon")


@pytest.mark.parametrize("name", ["iso-2022-jp", "replacement"])
def test_ascii_incompatible_encodings_are_transcoded_not_parsed_as_is(name):
    d = detect(b"<p>x", hint=name)
    assert (d.legacy, d.utf16, d.transcode) == (False, False, True)


def test_replacement_document_becomes_one_replacement_character():
    data = b"\x1b$)C<p>\x0e!!\x0f"
    assert to_utf8(data, detect(data, hint="iso-2022-kr")) == "\ufffd".encode()


@pytest.mark.parametrize("data", [b"<p>x</p>", bytearray(b"<p>x</p>"), memoryview(b"<p>x</p>")])
def test_bytes_like_inputs(data):
    assert detect(data).name == "utf-8"


def test_str_is_rejected():
    with pytest.raises(TypeError):
        detect("<p>x</p>")


# ---- the meta prescan ----

CYR = "<p>Привет</p>"


def _doc(head: str, body: str = CYR, codec: str = "cp1251") -> bytes:
    return head.encode("ascii") + body.encode(codec)


@pytest.mark.parametrize("head", [
    '<meta charset="windows-1251">',
    "<meta charset='windows-1251'>",
    "<meta charset=windows-1251>",
    "<META CHARSET=WINDOWS-1251>",
    "<meta/charset=cp1251>",
    '<meta charset = " windows-1251 ">',
    '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
    '<meta content="text/html;charset=windows-1251" http-equiv="content-type">',
    "<meta http-equiv=content-type content='text/html; charset=\"windows-1251\"'>",
    '<meta http-equiv="Content-Type" content="text/html; charset =  windows-1251;x">',
    '<meta http-equiv="content-type" content="charset; charset=windows-1251">',
    '<!DOCTYPE html><html lang="ru"><head><title>x</title><meta charset="windows-1251">',
    '<!-- a comment --><meta charset="windows-1251">',
    '<!--><meta charset="windows-1251">',  # "<!-->" is a whole comment
    '<meta charset="bogus"><meta charset="windows-1251">',  # failure: keep scanning
    '<meta charset="windows-1251" charset="koi8-r">',  # first duplicate wins
    '<meta http-equiv="content-type" content="charset=koi8-r" charset="windows-1251">',
    '<?xml version="1.0" encoding="windows-1251"?><html>',
])
def test_prescan_finds_the_declaration(head):
    d = detect(_doc(head))
    assert (d.name, d.codec, d.source, d.legacy) == ("windows-1251", "whatwg-windows-1251", "meta", True)


@pytest.mark.parametrize("head", [
    '<!-- <meta charset="windows-1251"> -->',
    '<meta content="text/html; charset=windows-1251">',  # content needs http-equiv
    '<meta http-equiv="refresh" content="5; charset=windows-1251">',
    '<meta http-equiv="content-type" content="text/html; charset=\'windows-1251">',
    '<a title=\'<meta charset="windows-1251">\'>',  # inside an attribute value
    '<metadata charset="windows-1251">',
    '<meta name="x" content="y">',
    '<?xml version="1.0" encoding="windows 1251"?>',
])
def test_prescan_ignores_non_declarations(head):
    d = detect(_doc(head))
    assert (d.name, d.source) == ("windows-1252", "fallback")


def test_utf16_in_meta_means_utf8_and_x_user_defined_means_windows_1252():
    assert prescan(b'<meta charset="utf-16le">') == "utf-8"
    assert prescan(b'<meta http-equiv="Content-Type" content="text/html; charset=UTF-16">') == "utf-8"
    assert prescan(b'<meta charset="x-user-defined">') == "windows-1252"
    assert prescan(b'<?xml version="1.0" encoding="UTF-16"?>') == "utf-8"


def test_utf16_xml_declaration_without_bom():
    data = '<?xml version="1.0"?><html><p>é</p>'.encode("utf-16-le")
    d = detect(data)
    assert (d.name, d.source, d.utf16) == ("utf-16le", "meta", True)
    assert detect('<?xml version="1.0"?>'.encode("utf-16-be")).name == "utf-16be"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("page", [
    '<!DOCTYPE html><html><head><meta charset="utf-16"><title>T\u00e9st</title></head><body>x</body></html>',
    "\r\n<title>\u4e2d\u6587\u6807\u9898</title><p>\u4e2d\u6587\u5185\u5bb9",
    "<p>\u041f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440, \u043a\u0430\u043a \u0434\u0435\u043b\u0430</p>",
])
def test_utf16_without_bom_is_recognised_by_its_shape(codec, page):
    # the spec's autodetection step: markup in UTF-16 has a zero byte in most of its first
    # code units; before, the page read as UTF-8 or windows-1252 with NULs between characters
    data = page.encode(codec)
    name = codec.replace("-le", "le").replace("-be", "be")
    d = detect(data)
    assert (d.name, d.source, d.bom, d.utf16) == (name, "utf16-pattern", b"", True)
    doc = fp.parse(data)
    assert doc.encoding == name and doc.source == page.encode()   # transcoded to UTF-8
    assert doc.select_one("title, p").text == fp.parse(page).select_one("title, p").text


@pytest.mark.parametrize("data", [
    b"<\x00a\x00\x00\x00b\x00c\x00d\x00",     # a NUL code unit
    b"x\x00<\x00a\x00b\x00c\x00d\x00",         # the first unit is not markup
    b"<\x00p\x00>",                          # fewer than four units
    b"<p>\x00<\x00b\x00",                     # NULs at the wrong bytes: a stray NUL in an ASCII page
    "<p>\u4e00\u4e01\u4e03\u4e07\u4e08\u4e09\u4e0a\u4e0b".encode("utf-16-le"),  # three markup units
])
def test_utf16_shape_needs_markup_in_most_of_the_first_units(data):
    assert detect(data).source != "utf16-pattern"
    assert _core.utf16_pattern(data) is None


def test_meta_past_1024_bytes_is_not_prescanned():
    pad = "<p>" + "x" * 1100 + "</p>"
    # Valid UTF-8 (here ASCII): the fallback; the late meta is not consulted.
    d = detect((pad + '<meta charset="windows-1251">').encode())
    assert (d.name, d.source) == ("utf-8", "fallback")


def test_meta_cut_by_the_1024_byte_boundary_is_ignored():
    head = " " * 1010 + '<meta charset="koi8-r">'
    assert len(head.split("charset")[0]) < 1024 < len(head)
    assert prescan(head.encode()[:1024]) is None
    assert detect(head.encode()).source == "fallback"


def test_late_meta_is_used_when_bytes_are_not_utf8():
    script = "<script>var a = 1;</script>\n" * 60
    data = _doc(f"<html><head>{script}<meta charset=windows-1251></head><body>")
    d = detect(data)
    assert (d.name, d.source, d.legacy) == ("windows-1251", "late-meta", True)


def test_late_meta_stops_at_body():
    data = _doc("<html><head>" + " " * 1100 + "</head><body><meta charset=windows-1251>")
    assert (detect(data).name, detect(data).source) == ("windows-1252", "fallback")


def test_late_meta_window_ends_at_64_kib():
    late = _doc("<html><head>" + " " * 60000 + "<meta charset=windows-1251></head>")
    assert (detect(late).name, detect(late).source) == ("windows-1251", "late-meta")
    too_late = _doc("<html><head>" + " " * 66000 + "<meta charset=windows-1251></head>")
    assert (detect(too_late).name, detect(too_late).source) == ("windows-1252", "fallback")


def _late_meta_reference(data: bytes) -> str | None:
    # the step as the Python side read it before detect.c's took its place
    body = re.compile(rb"<[bB][oO][dD][yY]").search(data, 1024, 1 << 16)
    return None if len(data) <= 1024 else prescan(data[:body.start() if body else 1 << 16])


def test_late_meta_agrees_with_a_regex_body_search():
    # "<body" anywhere around the 1024-byte and 64 KiB edges, cut, in any case
    r = random.Random(11)
    pieces = [b"<body", b"<BoDy>", b"<bod", b"<meta charset=koi8-r>", b"<meta charset=gbk>", b"<p>", b"x"]
    for _ in range(2000):
        data = bytearray(b" " * r.choice([0, 900, 1019, 1020, 1024, 65500, 65531]))
        for _ in range(r.randint(0, 6)):
            data[r.randint(0, len(data)):0] = r.choice(pieces) if r.random() < 0.8 else b" " * r.randint(0, 2000)
        data = bytes(data)
        assert _core.late_meta(data) == _late_meta_reference(data), data[-80:]


def test_utf8_declaration_is_obeyed_without_reading_the_document(monkeypatch):
    def fail(data):
        raise AssertionError("detect() read the whole document after a UTF-8 <meta>")

    monkeypatch.setattr(encoding, "_utf8_state", fail)
    data = b'<meta charset="utf-8">' + "caf\xe9 ".encode("cp1252") * 10000
    assert detect(data)[:4] == ("utf-8", "utf-8", b"", "meta")


_TAG_PIECES = [b"a", b"B", b"=", b'"', b"'", b" ", b"\t", b"/", b">", b"\xe9", b"x="]


def test_tag_skipping_regex_agrees_with_get_an_attribute_steps():
    """The fast path for non-meta tags ends where the spec's steps end."""
    rng = random.Random(2026)
    for _ in range(20000):
        data = b"<a " + b"".join(rng.choices(_TAG_PIECES, k=rng.randint(0, 16)))
        pos = 2
        try:
            while True:
                name, _, pos = _get_attribute(data, pos)
                if name is None:
                    break
            expected = pos
        except _EndOfInput:
            expected = None
        m = _TAG_ATTRIBUTES.match(data, 2)
        assert (m.end() - 1 if m else None) == expected, data


def test_prescan_skips_quoted_attribute_values_of_other_tags():
    assert prescan(b'<a title="x > <meta charset=koi8-r>" b=1><meta charset=koi8-u>') == "koi8-u"
    assert prescan(b"<a title='x' b=\"<meta charset=koi8-r>\"><meta charset=koi8-u>") == "koi8-u"
    # Inside a tag '<' is an ordinary byte: these <meta> are attributes of <a>.
    assert prescan(b"<a b=x<meta charset=koi8-r>") is None
    assert prescan(b"<a b = c <meta charset=koi8-r>") is None
    assert prescan(b"<a b = c ><meta charset=koi8-r>") == "koi8-r"


# ---- the C prescan (fastparse/_core/prescan.c) against the Python reference ----

_LABEL_SAMPLES = [b"utf-8", b"UTF-8", b" koi8-r ", b"windows-1251", b"gb2312", b"x-user-defined",
                  b"utf-16", b"UTF-16BE", b"bogus", b"", b"latin1", b"\tcp1252\x0c", b"iso-2022-kr",
                  b"utf 8", b"euc-jp"]


def _quoted(rng: random.Random, value: bytes) -> bytes:
    quote = rng.choice([b'"', b"'", b"", b""])
    return quote + value + quote


def _random_attribute(rng: random.Random) -> bytes:
    name = rng.choice([b"charset", b"CHARSET", b"content", b"Content", b"http-equiv", b"HTTP-EQUIV",
                       b"name", b"a", b"=x", b"x=", b"/"])
    if name.lower() == b"content":
        value = b"".join([
            rng.choice([b"text/html", b"", b"charset", b"x"]), rng.choice([b";", b"; ", b"", b" "]),
            rng.choice([b"charset", b"CHARSET", b"xcharset", b"charset "]),
            rng.choice([b"=", b" = ", b"", b"=\t"]), _quoted(rng, rng.choice(_LABEL_SAMPLES)),
            rng.choice([b"", b";", b" ;x", b"'"])])
    elif name.lower() == b"http-equiv":
        value = rng.choice([b"content-type", b"Content-Type", b"refresh", b"content-typex", b""])
    elif name.lower() == b"charset":
        value = rng.choice(_LABEL_SAMPLES)
    else:
        value = rng.choice([b"x", b"", b">", b"<meta charset=koi8-u>", b"a b"])
    equals = rng.choice([b"=", b" = ", b"\t=", b"", b" "])
    return name + equals + (_quoted(rng, value) if b"=" in equals else b"")


def _random_construct(rng: random.Random) -> bytes:
    kind = rng.randrange(10)
    if kind < 4:
        return (rng.choice([b"<meta", b"<META", b"<Meta", b"<meta/"])
                + b"".join(rng.choice([b" ", b"/", b"\n", b""]) + _random_attribute(rng)
                           for _ in range(rng.randint(0, 4)))
                + rng.choice([b">", b" />", b"/>", b""]))
    if kind < 6:
        return (rng.choice([b"<a", b"<div", b"</p", b"<metadata", b"<x-y"])
                + b"".join(b" " + _random_attribute(rng) for _ in range(rng.randint(0, 3)))
                + rng.choice([b">", b""]))
    if kind == 6:
        return (rng.choice([b"<!--", b"<!---", b"<!-->", b"<!--->"])
                + rng.choice([b"", b" <meta charset=koi8-r> ", b"-", b"--"])
                + rng.choice([b"-->", b"->", b"--!>", b""]))
    if kind == 7:
        return rng.choice([b"<!doctype html>", b"<?php x ?>", b"</>", b"<!x", b"< meta charset=koi8-r>",
                           b"<1>", b"</ x>"])
    if kind == 8:
        return rng.choice([b"text ", b"\xe9\xff", b"\x00", b"\n", b"<", b">", b"&amp;"])
    return (b"<?xml" + rng.choice([b" version='1.0'", b""])
            + rng.choice([b" encoding", b" encoding ", b"encoding"])
            + rng.choice([b"=", b" = ", b"\x01=", b""]) + _quoted(rng, rng.choice(_LABEL_SAMPLES))
            + rng.choice([b"?>", b">", b""]))


def _random_head(rng: random.Random) -> bytes:
    """Markup the prescan branches on, then maybe cut short or with one byte slipped in."""
    head = b"".join(_random_construct(rng) for _ in range(rng.randint(0, 6)))
    roll = rng.random()
    if roll < 0.15:
        head = head[:rng.randint(0, len(head))]
    elif roll < 0.3:
        at = rng.randint(0, len(head))
        head = head[:at] + bytes([rng.choice(b"<>\"'= /-!?\tmM")]) + head[at:]
    return head


def test_c_prescan_matches_reference_on_generated_heads():
    rng = random.Random(1024)
    answers: collections.Counter[str | None] = collections.Counter()
    for _ in range(20000):
        head = _random_head(rng)
        expected = prescan_reference(head)
        assert _core.prescan(head) == expected, head
        answers[expected] += 1
    # The generator reaches declarations, not only "nothing found".
    assert answers[None] < 0.9 * sum(answers.values()) and len(answers) >= 8, answers


def test_c_prescan_knows_every_label_as_the_python_table_does():
    substitute = {"utf-16le": "utf-8", "utf-16be": "utf-8", "x-user-defined": "windows-1252"}
    for label in encoding._LABELS:
        for text in (label, label.upper(), f" {label}\t", label[:-1], label + "x", "x" + label):
            name = encoding._label_to_name(text.encode())
            expected = substitute.get(name, name) if name is not None else None
            assert _core.prescan(f'<meta charset="{text}">'.encode()) == expected, text


def generated_by(tool: str, header: str) -> None:
    """header (in fastparse/_core) is what tools/<tool>.py renders today."""
    spec = importlib.util.spec_from_file_location(tool, ROOT / "tools" / f"{tool}.py")
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    text = (ROOT / "fastparse" / "_core" / header).read_text(encoding="utf-8")
    assert text == generator.render(), f"run: python tools/{tool}.py"


def test_labels_header_is_generated_from_the_python_table():
    generated_by("gen_labels", "labels_gen.h")


def test_double_byte_pairs_header_is_generated_from_the_codecs():
    # which lead bytes pair with a letter (names) or "]" (CDATA) is what the text decodes
    generated_by("gen_dbcs", "dbcs_gen.h")


def test_c_prescan_window_and_argument_types():
    data = b'<p class=x><meta charset="koi8-r">'
    assert _core.prescan(data) == _core.prescan(data, None) == _core.prescan(data, 10**9) == "koi8-r"
    assert _core.prescan(data, len(data)) == "koi8-r"
    assert _core.prescan(data, len(data) - 1) is None  # the window ends inside the <meta>
    assert _core.prescan(data, 0) is None
    for like in (bytearray(data), memoryview(data)):
        assert _core.prescan(like, 1024) == "koi8-r"
    with pytest.raises(ValueError):
        _core.prescan(data, -1)
    with pytest.raises(TypeError):
        _core.prescan(data.decode())


# ---- fallback and the real-world UTF-8 rule ----

def test_fallback_utf8_when_bytes_validate():
    d = detect("<p>naïve – 東京</p>".encode())
    assert (d.name, d.source, d.legacy, d.bom) == ("utf-8", "fallback", False, b"")


def test_fallback_ascii_is_utf8():
    assert detect(b"<p>plain</p>").name == "utf-8"


def test_undeclared_iso_2022_jp_is_guessed_from_its_escapes():
    text = "<title>\u65e5\u672c\u7d4c\u6e08\u65b0\u805e</title><p>\u8a18\u4e8b\u3067\u3059\u3002</p>"
    data = text.encode("iso2022_jp")
    assert data.isascii() and b"\x1b$B" in data
    d = detect(data)
    assert (d.name, d.source, d.transcode) == ("iso-2022-jp", "guess", True)
    doc = fp.parse(data)
    assert doc.encoding == "iso-2022-jp"
    assert [(t.name, t.text) for t in doc] == [("title", "\u65e5\u672c\u7d4c\u6e08\u65b0\u805e"),
                                               ("p", "\u8a18\u4e8b\u3067\u3059\u3002")]
    # the 1978 edition's escape too; an escape to ASCII or JIS-Roman alone is no evidence,
    # nor is a stray escape to JIS X 0208 without a run of pairs that returns to ASCII
    assert detect(b"<p>\x1b$@F|\x1b(B</p>").name == "iso-2022-jp"
    for stray in (b"<p>\x1b(Jx\x1b(B</p>", b"<script>var s='\x1b$B';</script><p>hello</p>",
                  b"<p>\x1b$BF|K\n\x1b(B</p>", b"<p>\x1b$BF|K\x1b(B</p>", b"<p>\x1b$B\x1b(B</p>"):
        assert detect(stray).name == "utf-8" == fp.parse(stray).encoding, stray
    # declared, or not 7-bit: the declaration and the UTF-8 check stand
    assert detect(b"<meta charset=utf-8>" + data).name == "utf-8"
    assert detect(data + "\u00e9".encode()).name == "utf-8"


def test_fallback_windows_1252_when_bytes_are_not_utf8():
    d = detect("<p>café</p>".encode("cp1252"))
    assert (d.name, d.codec, d.source, d.legacy) == ("windows-1252", "whatwg-windows-1252", "fallback", True)


def test_legacy_meta_loses_to_valid_utf8_with_non_ascii():
    data = '<meta charset="gb2312"><p>中文</p>'.encode()
    d = detect(data)
    assert (d.name, d.source, d.legacy) == ("utf-8", "utf8-valid", False)


def test_legacy_meta_kept_when_bytes_really_are_legacy():
    data = '<meta charset="gb2312"><p>中文</p>'.encode("gbk")
    d = detect(data)
    assert (d.name, d.codec, d.source) == ("gbk", "whatwg-gb18030", "meta")
    assert data.decode(d.codec) == '<meta charset="gb2312"><p>中文</p>'


def test_legacy_meta_kept_for_pure_ascii():
    d = detect(b'<meta charset="iso-8859-1"><p>plain</p>')
    assert (d.name, d.source) == ("windows-1252", "meta")


# bytes of 0x80-0x9F that Windows leaves unassigned: the Encoding Standard's
# indexes decode them as the C1 controls of their value (index-windows-1252 maps
# 0x81 to U+0081), where Python's cp125x codecs have no character
C1_HOLES = {"windows-1252": b"\x81\x8d\x8f\x90\x9d", "windows-1250": b"\x81\x83\x88\x90\x98",
            "windows-1251": b"\x98", "windows-874": b"\x81\x90\x9f", "windows-1257": b"\x81\x9f"}


@pytest.mark.parametrize(("charset", "holes"), sorted(C1_HOLES.items()))
def test_unassigned_windows_bytes_decode_as_c1_controls(charset, holes):
    want = "".join(chr(b) for b in holes)
    codec = lookup(charset)[1]
    assert (holes.decode(codec), want.encode(codec)) == (want, holes)
    doc = fp.parse(b"<meta charset=" + charset.encode() + b'><p title="' + holes + b'">' + holes + b"\x80</p>")
    p = doc.find("p")
    assert (doc.encoding, p.text, p["title"]) == (charset, want + b"\x80".decode(codec), want)
    assert doc.select_one(f'p[title="{want}"]') == p


# bytes where Python's tables differ from the Encoding Standard's indexes
INDEX_DIFFERENCES = [("windows-1255", b"\xca", "\u05ba"),                 # HEBREW POINT HOLAM HASER FOR VAV
                     ("koi8-u", b"\xae\xbe", "\u045e\u040e")]           # KOI8-RU's ў Ў, not ╝ ╬


@pytest.mark.parametrize(("charset", "data", "want"), INDEX_DIFFERENCES)
def test_bytes_decode_as_the_encoding_standards_index_has_them(charset, data, want):
    codec = lookup(charset)[1]
    assert (data.decode(codec), want.encode(codec)) == (want, data)
    doc = fp.parse(b"<meta charset=" + charset.encode() + b'><p title="' + data + b'">' + data + b"</p>")
    p = doc.find("p")
    assert (doc.encoding, p.text, p["title"]) == (charset, want, want)
    assert doc.select_one(f'p[title="{want}"]') == p


# The Encoding Standard's multi-byte decoders at malformed bytes: a lead takes a non-ASCII
# byte after it along (one U+FFFD) and gives an ASCII one back; written from its text
MULTI_BYTE_DECODING = [
    ("shift_jis", b"\x81\xad", "\ufffd"),            # cp932 alone: U+FFFD and a half-width katakana
    ("shift_jis", b"\x81 x", "\ufffd x"),
    ("shift_jis", b"\xa0\xfd\x80", "\ufffd\ufffd\x80"),   # cp932 alone: private-use characters
    ("euc-jp", b"\xad\xa1\xad\xb4", "\u2460\u2473"),   # NEC row 13: ① ⑳, which euc_jp lacks
    ("euc-jp", b"\xa1\xc1\xa1\xdd\xa2\xcc", "\uff5e\uff0d\uffe2"),   # index-jis0208: ～ － ￢
    ("euc-jp", b"\x8f\xa1A", "\ufffdA"),
    ("euc-kr", b"\x81\xff", "\ufffd"),
    ("big5", b"\x81A\x81\xff", "\ufffdA\ufffd"),
    ("big5", b"\xa1\x45\xa1\xe3", "\u2027\uff5e"),      # ‧ ～ as cp950 has them; big5hkscs: • ∼
    ("gbk", b"\x80", "\u20ac"),
    ("gbk", b"\xa6\xd9\xfe\x59\xa8\xbc", "\ufe10\u9fb4\u1e3f"),   # GB 18030-2005/2022, not private use
    ("gb18030", b"\x810\x81 ", "\ufffd0\ufffd "),     # a four-byte sequence cut short
]


@pytest.mark.parametrize(("charset", "data", "want"), MULTI_BYTE_DECODING)
def test_malformed_multi_byte_text_decodes_as_the_encoding_standard_says(charset, data, want):
    assert data.decode(lookup(charset)[1], "replace") == want
    doc = fp.parse(b'<p title="' + data + b'">' + data + b"</p>", encoding=charset)
    assert (doc.find("p").text, doc.find("p")["title"]) == (want, want)


# ISO-2022-JP: the Encoding Standard's decoder, state by state (written from its text)
ISO_2022_JP = [
    (b"\x1b$B\x46\x7c\x4b\x5c\x2d\x21\x21\x41\x1b(B", "\u65e5\u672c\u2460\uff5e"),   # 日本①～
    (b"\x1b(J\x5c\x7e\x1b(B\x5c", "\u00a5\u203e\\"),       # JIS-Roman's yen and overline
    (b"\x1b(I\x31\x1b(B", "\uff71"),                         # half-width katakana
    (b"\x1b$B\x1b(Bx", "\ufffdx"),                           # two escape sequences in a row
    (b"\x1b$x", "\ufffd$x"),                                 # an unknown one: its bytes given back
    (b"a\x0eb\x0fc", "a\ufffdb\ufffdc"),                    # SO and SI are errors
    (b"\x1b$B\x46", "\ufffd"),                               # a lead byte at the end
]


@pytest.mark.parametrize(("data", "want"), ISO_2022_JP)
def test_iso_2022_jp_decodes_as_the_encoding_standard_says(data, want):
    assert data.decode(lookup("iso-2022-jp")[1], "replace") == want
    if data.endswith(b"\x46"):
        return   # the lead byte would pair with the '<' of markup after it
    doc = fp.parse(b"<p>" + data + b"</p>", encoding="iso-2022-jp")
    assert (doc.encoding, doc.find("p").text) == ("iso-2022-jp", want)


def _transcoded(data: bytes) -> tuple[str, int]:
    utf8, malformed = _core.iso2022jp_to_utf8(data)
    return utf8.decode("utf-8"), malformed


def _reference(data: bytes) -> tuple[str, int]:
    text = iso2022jp_reference(data)
    return text, text.count("\ufffd")


def test_iso_2022_jp_transcoder_reads_short_inputs_as_the_reference_decoder():
    # every input of up to 4 bytes over the bytes each state reads apart: ESC, the
    # escapes' bytes, SO, Roman's two, a JIS X 0208 pair (46 7C: 日), a pair the index
    # lacks (29 21), Katakana's last byte and the one past it (5F, 60), a space, a high byte
    alphabet = b"\x1b$(BJI@\x0e\\~F|)!_`\x80 "
    for length in range(5):
        for data in map(bytes, itertools.product(alphabet, repeat=length)):
            assert _transcoded(data) == _reference(data), data


def test_iso_2022_jp_transcoder_reads_random_documents_as_the_reference_decoder():
    rng = random.Random(2022)
    escapes = [b"\x1b$B", b"\x1b$@", b"\x1b(B", b"\x1b(J", b"\x1b(I", b"\x1b(", b"\x1b$", b"\x1b"]
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(0, 40)):
            kind = rng.random()
            if kind < 0.3:
                parts.append(rng.choice(escapes))
            elif kind < 0.7:   # pairs in the lead byte state, markup in ASCII
                parts.append(bytes(rng.randint(0x21, 0x7E) for _ in range(rng.randint(1, 9))))
            else:
                parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 3))))
        data = b"".join(parts)
        assert _transcoded(data) == _reference(data), data


def test_iso_2022_jp_transcoder_reads_every_pair_as_the_reference_decoder():
    for lead in range(0x21, 0x7F):
        data = b"\x1b$B" + bytes(b for trail in range(0x20, 0x80) for b in (lead, trail)) + b"\x1b(B"
        assert _transcoded(data) == _reference(data), hex(lead)
    assert _transcoded(b"\x1b$B\x2d\x21\x74\x26\x29\x21") == ("\u2460\u7199\ufffd", 1)   # ① 熙, none


def test_iso_2022_jp_page_parses_as_its_utf8_text():
    # long runs of markup and of text, in every state that reads text
    words = ["\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8", "\u30ab\u30bf\u30ab\u30ca", "\u0391\u0416"]
    rows = [f'<li class="item-{k}"><a href="/p/{k}">{words[k % 3] * (k % 7 + 1)}</a> x{k}</li>\n' for k in range(3000)]
    text = "<ul>\n" + "".join(rows) + "</ul>"
    data = text.encode("iso2022_jp") + b"\x1b(J\\~\x1b(I\x31\x1b(B"
    doc = fp.parse(data)
    assert (doc.encoding, doc.source) == ("iso-2022-jp", (text + "\u00a5\u203e\uff71").encode())
    assert [a.text for a in doc.find_all("a")] == [words[k % 3] * (k % 7 + 1) for k in range(3000)]
    assert _core.iso2022jp_to_utf8(bytearray(data)) == _core.iso2022jp_to_utf8(memoryview(data)) == \
        (doc.source, 0)


def test_iso_2022_jp_pairs_header_is_generated_from_the_euc_jp_codec():
    # ISO-2022-JP's pairs read as EUC-JP's do, the same bytes with the high bit set
    generated_by("gen_jis0208", "jis0208_gen.h")


def test_iso_2022_jp_codec_raises_on_malformed_bytes_when_strict():
    assert b"\x1b$B\x46\x7c\x1b(B".decode("whatwg-iso-2022-jp") == "\u65e5"
    with pytest.raises(UnicodeDecodeError, match="iso-2022-jp"):
        b"a\x0eb".decode("whatwg-iso-2022-jp")
    with pytest.raises(TypeError):
        _core.iso2022jp_to_utf8("text")


def test_gb18030_moved_codes_of_a_selector_are_written_as_its_decoder_reads_them():
    doc = fp.parse(b"<meta charset=gb18030><p title=\"\xa6\xd9\">x</p>")
    assert doc.find("p")["title"] == "\ufe10"
    assert doc.select_one('p[title="\ufe10"]') == doc.find("p")


def test_big5_symbols_of_a_selector_are_written_as_its_decoder_reads_them():
    doc = fp.parse(b"<meta charset=big5><p title=\"\xa1\x45\">x</p>")
    assert doc.find("p")["title"] == "\u2027"
    assert doc.select_one('p[title="\u2027"]') == doc.find("p")


def test_big5_reads_the_index_pairs_python_lacks():
    # HKSCS-2008 (87 7A), an HKSCS compatibility point (8E 69, 箸 as BA E6 also writes it),
    # row A3's control pictures and euro sign; a letter second byte stays in a tag name
    doc = fp.parse(b'<meta charset=big5><p title="\x87\x7a\x8e\x69">\xa3\xc0\xa3\xe1</p><x\x9c\x42>')
    p = doc.find("p")
    assert (p["title"], p.text) == ("\u3875\u7bb8", "\u2400\u20ac")
    assert doc.find_all()[-1].name == "x\u8f36"
    assert doc.select('p[title^="\u3875"]') == [p] and doc.select('p[title$="\u7bb8"]') == [p]
    assert b"\x87\x7a".decode("whatwg-big5", "replace") == "\u3875"


def test_euc_jp_strings_of_a_selector_are_written_as_its_decoder_reads_them():
    doc = fp.parse(b"<meta charset=euc-jp><p title=\"\xad\xa1\xa1\xc1\">\xad\xa1</p>")
    assert doc.select_one('p[title="\u2460\uff5e"]') == doc.find("p")
    assert doc.select("p:contains('\u2460')") == [doc.find("p")]


def test_utf8_meta_obeyed_even_for_invalid_utf8():
    d = detect('<meta charset="utf-8"><p>café</p>'.encode("cp1252"))
    assert (d.name, d.source) == ("utf-8", "meta")


def test_python_utf8_reference_matches_the_spec_on_edge_cases():
    # Overlongs, surrogates and code points past U+10FFFF are not UTF-8.
    for bad in (b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"):
        assert _py_utf8_check(b"<p>" + bad) == 0
    assert _py_utf8_check("€".encode()) == 2


# ---- the real pages ----

def _manifest_pages() -> list[tuple[str, str]]:
    manifest = CORPORA / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(newline="", encoding="utf-8") as f:
        return [(row["path"], row["declared_charset"])
                for row in csv.DictReader(f, delimiter="\t")
                if row["kind"] == "encoding" or row["declared_charset"]]


# Pages whose right encoding is not the WHATWG name of their declared charset.
EXPECTED_OVERRIDES = {
    # Declares gb2312 but Readability stores it re-encoded as UTF-8.
    "readability/qq/source.html": ("utf-8", "utf8-valid"),
    # Declares ISO-8859-1, but its £, € and – are UTF-8 sequences.
    "scrapely/samples_htmlpage_1.html": ("utf-8", "utf8-valid"),
    # "charset=WINDOWS-1252" sits in an X-UA-Compatible content (not a
    # declaration for the prescan); the bytes are UTF-8.
    "htmlparser-benchmark/56671acb60ba54b0c5c5bf3e428d1a679035a07c3721e71e871236ab6b9f08aa.html":
        ("utf-8", "fallback"),
    # Pure ASCII, its ISO-8859-1 <meta> is past byte 1024: any answer decodes it alike.
    "htmlparser-benchmark/cddf37daa9a59cd9fea5f26fa72d98857caa75ce8076e3ebee47b5a328bd8642.html":
        ("utf-8", "fallback"),
    "wpull/kcna.html": ("utf-16le", "bom"),
    # <meta> after 1 KB of scripts: found by the late-meta rule.
    "trafilatura/archive.org.he.xinhuanet.com.25340717.html": ("gbk", "late-meta"),
    "trafilatura/rp.pl.unijne-fundusze.html": ("windows-1250", "late-meta"),
}
PAGES = _manifest_pages()
needs_corpus = pytest.mark.skipif(
    not PAGES, reason=f"corpus not found at {CORPORA} (../shared/corpora from the repo root)")


def _expected(path: str, declared: str) -> str:
    if path in EXPECTED_OVERRIDES:
        return EXPECTED_OVERRIDES[path][0]
    return lookup(declared)[0]


def _title_of(text: str) -> str | None:
    """The first <title>'s text; comments and scripts are removed first.

    Checked against html5lib on every page of PAGES.
    """
    text = re.sub(r"(?s)<!--.*?-->", "", text)
    text = re.sub(r"(?is)<script\b.*?</script\s*>", "", text)
    m = re.search(r"(?is)<title\b[^>]*>(.*?)</title", text)
    return html.unescape(m.group(1)) if m else None


@needs_corpus
@pytest.mark.parametrize(("path", "declared"), PAGES or [("", "")], ids=[p for p, _ in PAGES] or ["none"])
def test_corpus_page_encoding(path, declared):
    data = (CORPORA / path).read_bytes()
    d = detect(data)
    assert d.name == _expected(path, declared)
    if path in EXPECTED_OVERRIDES:
        assert d.source == EXPECTED_OVERRIDES[path][1]
    # The verdict decodes the whole page without a single error.
    str(memoryview(data)[len(d.bom):], d.codec)


def _all_corpus_pages() -> list[str]:
    manifest = CORPORA / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(newline="", encoding="utf-8") as f:
        return [row["path"] for row in csv.DictReader(f, delimiter="\t")]


@needs_corpus
def test_c_prescan_matches_reference_on_corpus_pages():
    for path in _all_corpus_pages():
        data = (CORPORA / path).read_bytes()
        # The two real windows, then cuts every 7 bytes: the window may end anywhere in a tag.
        for end in (1024, 64 * 1024, *range(0, 1024, 7)):
            assert _core.prescan(data, end) == prescan_reference(data[:end]), (path, end)


@needs_corpus
def test_corpus_has_the_encoding_pages():
    kinds = {path for path, _ in PAGES}
    assert {"readability/qq/source.html", "nokogiri/2ch.html", "myhtml/25.html",
            "wpull/kcna.html"} <= kinds


# ---- through the engine: these run (and must pass) once fastparse.parse exists ----

@pytest.mark.engine
@needs_corpus
@pytest.mark.parametrize(("path", "declared"), PAGES or [("", "")], ids=[p for p, _ in PAGES] or ["none"])
def test_parse_bytes_reports_encoding_and_decodes_title(path, declared):
    import fastparse

    data = (CORPORA / path).read_bytes()
    name = _expected(path, declared)
    doc = fastparse.parse(data)
    assert doc.encoding == name
    d = detect(data)
    text = str(memoryview(data)[len(d.bom):], d.codec)
    title = _title_of(text)
    found = doc.find("title")
    assert (found.text if found else None) == title


@pytest.mark.engine
def test_parse_bytes_with_encoding_hint():
    import fastparse

    doc = fastparse.parse("<title>Привет</title>".encode("koi8-r"), encoding="koi8-r")
    assert doc.encoding == "koi8-r"
    assert doc.find("title").text == "Привет"


@pytest.mark.engine
def test_parse_bytes_unknown_hint_is_lookup_error():
    import fastparse

    with pytest.raises(LookupError):
        fastparse.parse(b"<p>x", encoding="no-such-charset")


@pytest.mark.engine
@pytest.mark.parametrize("data", [
    b"", b"<p>x", "<p>é€ 東京 \U0001f600</p>".encode(), b"\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80",
    b"\xe2\x82", bytes(range(256)), b"a" * 4097 + "é".encode(),
])
def test_engine_utf8_check_agrees_with_reference(data):
    from fastparse._core import utf8_check

    assert utf8_check(data) == _py_utf8_check(data)


# sequences at and around every edge of UTF-8's definition, valid and not
_UTF8_EDGES = [
    b"\x7f", b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc2\x80", b"\xdf\xbf", b"\xe0\x80\x80",
    b"\xe0\x9f\xbf", b"\xe0\xa0\x80", b"\xed\x9f\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xee\x80\x80",
    b"\xef\xbf\xbf", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
    b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfe", b"\xff", b"\xc2", b"\xe2\x82", b"\xf0\x9f\x98",
    b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xc3\xa9\x80", b"\xe2\x82\xac\xac",
]


@pytest.mark.engine
@pytest.mark.parametrize("edge", _UTF8_EDGES, ids=lambda e: e.hex())
def test_engine_utf8_check_at_every_block_offset(edge):
    # the SIMD check reads 32-byte blocks and looks 3 bytes back across them, and
    # after an ASCII block skips ASCII 128 bytes at a time: each edge case at
    # offsets 0..70 and around the skips' ends (160, 288 with a 32-byte first block),
    # then end of input, ASCII, more UTF-8, a whole block or a long ASCII run, must
    # give what Python's decoder gives, on both code paths
    from fastparse._core import _utf8_check_portable, utf8_check

    for offset in [*range(71), *range(124, 300)]:
        for tail in (b"", b"a", "é".encode(), b"x" * 40, "€".encode() * 12, b"x" * 300):
            data = b"<" * offset + edge + tail
            want = _py_utf8_check(data)
            assert utf8_check(data) == want, (offset, tail)
            assert _utf8_check_portable(data) == want, (offset, tail)


@pytest.mark.engine
def test_engine_utf8_check_random_mixtures():
    from fastparse._core import _utf8_check_portable, utf8_check

    rng = random.Random(20261201)
    parts = _UTF8_EDGES + [b"ab", b"<p>", "Привет".encode(), "東京".encode()]
    for _ in range(5000):
        data = b"".join(rng.choice(parts) if rng.random() < 0.4 else b"text " for _ in range(rng.randrange(40)))
        assert utf8_check(data) == _utf8_check_portable(data) == _py_utf8_check(data), data


@pytest.mark.engine
def test_engine_utf8_check_stops_at_an_error_anywhere_in_a_long_page():
    # the SIMD check tests its error bits every 16 blocks with non-ASCII bytes, so
    # a legacy page fails without being read to its end: an error before, at and
    # after those tests, in pages of mixed and ASCII blocks, is still found, and a
    # valid page that long still passes
    from fastparse._core import _utf8_check_portable, utf8_check

    block = "Привет, мир! 東京 ".encode()   # 40 bytes, every 32-byte block mixed
    for blocks in (15, 16, 17, 40):
        body = block * blocks
        for cut in range(0, len(body) + 1, 7):
            for bad in (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe9t\xe9"):
                data = body[:cut] + bad + b"ascii " * 30 + block * 3
                assert utf8_check(data) == _utf8_check_portable(data) == 0, (blocks, cut, bad)
        assert utf8_check(body + b"x" * 200) == 2


# ---- parse()'s C fast path (_core._parse_bytes) decides as detect() does ----

def _same_as_decided(fast, data: bytes, d) -> None:
    """fast is the document the Python path makes of data, given detect()'s decision d."""
    if d.transcode:
        slow = _core._parse(to_utf8(data, d), d.name, None, 0, _core.DEFAULT_MAX_SIZE,
                            _core.DEFAULT_MAX_DEPTH, 0, False, None)
    else:
        slow = _core._parse(data, d.name, d.codec if d.legacy else None, len(d.bom),
                            _core.DEFAULT_MAX_SIZE, _core.DEFAULT_MAX_DEPTH, 0, False, None)
    assert fast.encoding == slow.encoding == d.name
    assert fast.source == slow.source
    assert [(t.name, t.span, t.parent.index if t.parent else None, t.text) for t in fast] == \
           [(t.name, t.span, t.parent.index if t.parent else None, t.text) for t in slow]
    assert fast.errors == slow.errors


def _fast_path_agrees(data: bytes) -> None:
    d = detect(data)
    fast = _core._parse_bytes(data)
    # everything but the encodings the engine must have transcoded and C does not
    # transcode (ISO-2022-JP, replacement); UTF-16 is transcoded in C, and the bytes
    # whose encoding detect() guesses (not UTF-8, nothing declared) are guessed there
    assert (fast is not None) == (not d.transcode or d.utf16), (data[:80], d)
    if fast is not None:
        _same_as_decided(fast, data, d)


def _hinted_fast_path_agrees(data: bytes, hint: str) -> None:
    """parse(data, encoding=hint) decides in C as detect(data, hint) decides, and
    goes to the Python path only for what C does not parse (ISO-2022-JP, replacement)."""
    from fastparse import _parse
    d = detect(data, hint)
    calls = []

    def general(*args, **kwargs):
        calls.append(kwargs)
        return _parse._parse_general(*args, **kwargs)

    _core._set_parse_general(general)
    try:
        fast = fp.parse(data, encoding=hint)
    finally:
        _core._set_parse_general(_parse._parse_general)
    assert bool(calls) == (d.transcode and not d.utf16), (data[:80], hint, d)
    _same_as_decided(fast, data, d)


@pytest.mark.parametrize("data", [
    b"", b"<p>x", "<p>caf\xe9".encode(), "<p>caf\xe9".encode("cp1252"),
    b'<meta charset="utf-8"><p>' + "caf\xe9".encode("cp1252"),     # declared UTF-8, bytes are not
    b'<meta charset="windows-1251"><p>' + "\u0436".encode(),          # declared otherwise, valid UTF-8
    b'<meta charset="windows-1251"><p>ascii only',
    b"\xef\xbb\xbf<p>bom", b"\xff\xfe<\x00p\x00>\x00", b"\xfe\xff\x00<\x00p\x00>",
    b"<\x00?\x00x\x00m\x00l\x00", b'<?xml version="1.0" encoding="utf-8"?><p>',
    b"<p>" + b" " * 2000 + b'<meta charset="windows-1250">' + "\u0436".encode("cp1251"),
    b"<p>" + b" " * 2000 + b'<meta charset="koi8-r">' + "\u0436".encode(),         # late, but UTF-8
    b"<p>" + b" " * 2000 + b'<BoDy><meta charset="koi8-r">' + "\u0436".encode("cp1251"),  # past <body>
    b"<p>" + b" " * 2000 + b'<meta charset="iso-2022-jp">\xff',                    # late, transcoded
    b'<meta charset="shift_jis"><p>' + "\u9ad9".encode("cp932"),
    b'<meta charset="iso-2022-jp"><p>\x1b$B$"\x1b(B',                           # transcoded: Python path
    b'<meta charset="x-user-defined"><p>\xf0',
    b'<meta charset="hz-gb-2312"><p>x',                                             # replacement
    b'<meta charset="iso-2022-jp"><p>' + "\u0436".encode(),                      # declared, but UTF-8
    b"<\x00?\x00x\x00m\x00l\x00" + "\u0436".encode(),                           # UTF-16 whatever follows
    "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>".encode("utf-16-le"),            # UTF-16 without a BOM
    "\n<title>\u4e2d\u6587</title>".encode("utf-16-be"),
    b"<\x00a\x00\x00\x00b\x00c\x00",                                               # a NUL unit: not UTF-16
    "<title>\u65e5\u672c</title>".encode("iso2022_jp"),                       # undeclared ISO-2022-JP
    b"<p>\x1b(Jx</p>", b"<p>\x1b$Bx\xc3\xa9</p>", b"<p>\x1b$Bxy\x1b(B</p>",     # no JIS X 0208; not 7-bit
])
def test_parse_fast_path_agrees_with_detect(data):
    _fast_path_agrees(data)


def test_parse_fast_path_agrees_with_detect_on_random_heads():
    rng = random.Random(7)
    pieces = [b"<meta charset=utf-8>", b"<meta charset=koi8-r>", b"<p>", b"\xc3\xa9", b"\xe9", b"\xef\xbb\xbf",
              b"<!--", b"-->", b" ", b"x" * 300, b'<meta http-equiv="content-type" content="text/html; charset=utf-8">',
              b"<meta charset=gbk>", b"<body>", b"<meta charset=utf-16le>", b"<meta charset=iso-2022-jp>",
              b"<\x00?\x00x\x00m\x00l\x00"]
    for _ in range(400):
        _fast_path_agrees(b"".join(rng.choice(pieces) for _ in range(rng.randrange(12))))


def test_parse_fast_path_transcodes_utf16_as_python_does():
    # the C transcoder packs 8 ASCII units at a time: runs of every length
    # around them, surrogates (paired, lone, at the end), odd lengths
    rng = random.Random(16)
    units = ["<p>", "x" * 7, "x" * 9, "a" * 20, "\u00e9", "\u20ac", "\U0001f600", "\x00", "\x7f", "\x80",
             "\uffff", "\ud800", "\udbff", "\udc00", "\udfff", "\ud800\ud800\udc00"]
    for _ in range(1500):
        text = "".join(rng.choice(units) for _ in range(rng.randrange(10)))
        for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")):
            body = text.encode(codec, "surrogatepass")
            for cut in (0, 1) if body else (0,):   # an odd byte at the end
                data = bom + body[:len(body) - cut]
                _fast_path_agrees(data)
                assert fp.parse(data).source == data[2:].decode(codec, "replace").encode()


@needs_corpus
def test_parse_fast_path_agrees_with_detect_on_corpus_pages():
    for path in _all_corpus_pages():
        _fast_path_agrees((CORPORA / path).read_bytes())


def test_parse_fast_path_leaves_to_python_the_encodings_it_was_not_given():
    from fastparse import encoding
    legacy = b'<meta charset="koi8-r"><p>\xd6'
    given = {name: (name, codec) for name, (codec, _) in encoding._ENCODINGS.items()
             if name != "utf-8" and name not in encoding._TRANSCODE}
    try:
        _core._set_legacy_codecs({})
        assert _core._parse_bytes(legacy) is None                      # the Python path decides
        assert _core._parse_bytes(b"<p>caf\xc3\xa9").encoding == "utf-8"   # UTF-8 needs no codec
    finally:
        _core._set_legacy_codecs(given)
    assert _core._parse_bytes(legacy).encoding == "koi8-r"
    with pytest.raises(TypeError, match="dict"):
        _core._set_legacy_codecs([("koi8-r", "koi8_r")])
    with pytest.raises(TypeError, match="all str"):
        _core._set_legacy_codecs({"koi8-r": "koi8_r"})


def test_parse_only_takes_the_fast_path_with_every_default():
    import fastparse
    data = '<meta charset="latin1"><p>caf\xe9'.encode("cp1252")
    assert fastparse._core._parse_bytes(data).encoding == "windows-1252"    # decided in C
    assert fastparse.parse(data).encoding == "windows-1252"
    undeclared = "<p>caf\xe9".encode("cp1252")
    assert fastparse._core._parse_bytes(undeclared).encoding == "windows-1252"   # C, after the guess
    assert fastparse.parse(undeclared).encoding == "windows-1252"
    assert fastparse.parse(b"<p>x", encoding="koi8-r").encoding == "koi8-r"  # a hint alone: C too
    assert fastparse.parse(b"<p>x", encoding="koi8-r", max_depth=10).encoding == "koi8-r"
    with pytest.raises(fastparse.ParseLimitError):
        fastparse.parse(b"<p>x" * 10, max_size=8)


HINTS = ["utf-8", " UTF8\t", "latin1", "windows-1251", "koi8-r", "shift_jis", "gbk", "big5", "euc-kr",
         "x-user-defined", "utf-16", "utf-16be", "UTF-16LE", "iso-2022-jp", "hz-gb-2312", "iso-8859-8-i"]


@pytest.mark.parametrize("hint", HINTS)
def test_parse_with_encoding_hint_agrees_with_detect(hint):
    samples = [
        b"", b"<p>x", "<p>caf\xe9 \u0436 \u6771".encode(), "<p>caf\xe9".encode("cp1252"),
        b"\xef\xbb\xbf<p>bom", b"\xff\xfe<\x00p\x00>\x00", b"\xfe\xff\x00<\x00p\x00>",   # a BOM wins
        b'<meta charset="koi8-r"><p>\xd6',                                             # the hint wins
        "<p>\u041f\u0440\u0438\u0432\u0435\u0442</p>".encode("utf-16-le") + b"\x00",  # odd length
        "\n<title>\u4e2d\u6587</title>".encode("utf-16-be"),
        b'<p>\x1b$B$"\x1b(B', bytes(range(256)), b"<p a='\xff\xfe'>\x80\x81",
    ]
    for data in samples:
        _hinted_fast_path_agrees(data, hint)


@needs_corpus
def test_parse_with_encoding_hint_agrees_with_detect_on_corpus_pages():
    for k, path in enumerate(_all_corpus_pages()):
        _hinted_fast_path_agrees((CORPORA / path).read_bytes(), HINTS[k % len(HINTS)])


@pytest.mark.parametrize("label", ["no-such-charset", "utf-8\x00", "\u212aoi8-r", "\ud800", ""])
def test_parse_with_an_unknown_hint_raises_lookup_error(label):
    with pytest.raises(LookupError, match="unknown encoding label"):
        fp.parse(b"<p>x", encoding=label)
    with pytest.raises(LookupError):
        fp.parse(b"\xef\xbb\xbf<p>x", encoding=label)   # even where a BOM decides


def test_shift_jis_codec_writes_what_the_encoding_standard_writes():
    # 396 characters have two or three Shift_JIS spellings; the WHATWG encoder skips the
    # NEC-selected IBM extension rows (lead bytes ED, EE) and takes the first of the rest
    spellings = {}
    for lead in [*range(0x81, 0xA0), *range(0xE0, 0xFD)]:
        for trail in [*range(0x40, 0x7F), *range(0x80, 0xFD)]:
            b = bytes((lead, trail))
            try:
                spellings.setdefault(b.decode("cp932"), []).append(b)
            except UnicodeDecodeError:
                pass
    multi = {ch: forms for ch, forms in spellings.items() if len(forms) > 1}
    assert len(multi) == 396
    for ch, forms in multi.items():
        assert ch.encode("whatwg-shift_jis") == min(f for f in forms if f[0] not in (0xED, 0xEE)), ch
    assert lookup("sjis") == ("shift_jis", "whatwg-shift_jis")
    assert b"\xfb\xfc\x8b\xb4".decode("whatwg-shift_jis") == "\u9ad9\u6a4b"


def test_shift_jis_page_with_ibm_kanji_answers_find_and_select():
    # U+9AD9 (a variant of 高 common in surnames) as Windows and browsers write it: FB FC
    data = (b"<meta charset=Shift_JIS><p title=\"\xfb\xfc\x8b\xb4\" class=\"\xfb\xfc\">"
            b"\xfb\xfc\x8b\xb4\x82\xb3\x82\xf1</p>")
    doc = fp.parse(data)
    p = doc.find("p")
    assert p.text == "\u9ad9\u6a4b\u3055\u3093" and p["title"] == "\u9ad9\u6a4b"
    assert doc.find(attrs={"title": "\u9ad9\u6a4b"}) == p and doc.find(cls="\u9ad9") == p
    assert doc.select('[title="\u9ad9\u6a4b"]') == [p] and doc.select(".\u9ad9") == [p]
    assert doc.select(':contains("\u9ad9\u6a4b")') == [p]


def test_big5_codec_writes_what_the_encoding_standard_writes():
    # the spec's Big5 index leaves out HKSCS lead bytes (below A1) and takes the last pointer
    # for six characters, the first for the rest; Python's big5hkscs picks otherwise for six
    spellings = {}
    for lead in range(0xA1, 0xFF):
        for trail in [*range(0x40, 0x7F), *range(0xA1, 0xFF)]:
            b = bytes((lead, trail))
            try:
                ch = b.decode("big5hkscs")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                spellings.setdefault(ch, []).append(b)
    multi = {ch: forms for ch, forms in spellings.items() if len(forms) > 1}
    assert len(multi) == 12
    for ch, forms in multi.items():
        last = ch in "\u2550\u255e\u2561\u256a\u5341\u5345"
        assert ch.encode("whatwg-big5") == (max(forms) if last else min(forms)), ch
        if not last:
            assert ch.encode("whatwg-big5") == ch.encode("cp950"), ch   # as Windows writes them
    doc = fp.parse(b"<meta charset=big5><p title=\"a\xa1\xfeb\">a\xa1\xfeb</p>")
    assert doc.encoding == "big5" and doc.select('[title="a\uff0fb"]') == [doc.find("p")]
    assert doc.find(attrs={"title": "a\uff0fb"}) and doc.select(':contains("a\uff0fb")')


def test_a_str_source_checks_its_label_and_does_not_use_it():
    # a str is text already: the label is validated (a typo still raises), then ignored
    for label in ("latin1", "shift_jis", "utf-16le"):
        doc = fp.parse("<p>caf\u00e9</p>", encoding=label)
        assert doc.encoding == "utf-8" and doc.find("p").text == "caf\u00e9"
    with pytest.raises(LookupError, match="unknown encoding label"):
        fp.parse("<p>x", encoding="no-such-charset")
