"""Tag names reach their known ids as the scanner reads them.

A start tag's name of at most 12 characters from a-z, A-Z and 1-6 is packed 5
bits a character into a 64-bit key as it is scanned (tokenizer_tag.h) and looked
up in the hash table tools/gen_tags.py writes; any other name is compared with
the long known names, then interned as the document's own. select() compares tag
ids (a selector's type is compiled to the known id), while tag.name reads the
table or the document's own names: an element given the wrong id keeps its name
but escapes select(), and loses the rules its tag has (void, raw text, implied
ends).
"""
from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

import fastparse as fp

GEN_TAGS = Path(__file__).resolve().parent.parent / "tools" / "gen_tags.py"


def known_names() -> list[str]:
    spec = importlib.util.spec_from_file_location("gen_tags", GEN_TAGS)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen.all_names()


NAMES = known_names()
# ignored in a body, or renamed (<image> is read as <img>)
LEFT_OUT = {"html", "head", "body", "frameset", "frame", "image"}
TABLE_PARTS = {"caption", "col", "colgroup", "tbody", "thead", "tfoot", "tr", "td", "th"}


def random_case(r: random.Random, name: str) -> str:
    return "".join(c.upper() if r.random() < 0.5 else c for c in name)


def test_the_table_knows_every_listed_name():
    assert len(NAMES) > 100
    assert all(fp._core._known_tag(n.encode()) > 0 for n in NAMES)


@pytest.mark.parametrize("after", [">", " a=1>", "/>", "\t>", "\n>", "\f>", "\r>"])
def test_every_known_name_is_found_by_select(after):
    """The element select() finds under each name is the one written, in any case,
    whatever ends its name: whitespace, '/', '>'. Table parts are written in a
    table, the rest in a div."""
    r = random.Random(after)
    for name in NAMES:
        if name in LEFT_OUT:
            continue
        written = random_case(r, name)
        box = "table" if name in TABLE_PARTS else "div"
        source = f"<{box} id=box><{written}{after}</{written}></{box}>"
        doc = fp.parse(source.encode())
        box = doc.find(id="box")
        assert box.find_all()[0].name == name, (name, source)
        named = [t for t in box.children if t.name == name]   # </br> is a second <br>
        assert named and doc.select(f"#box > {name}") == named, (name, source)


def test_names_that_are_not_packed():
    """13 or more characters, digits other than 1-6, a control byte or a
    non-ASCII byte in the name: the name is the document's own (or a long known
    one), and the tag after it is read as usual."""
    for name in ["blockquotexyz", "annotation-xml", "foreignobject", "h7", "h0", "x-card", "dıv",
                 "div\x01", "div\x7f", "p\x0b"]:
        written = "".join(c.upper() if c.isascii() else c for c in name)   # ASCII case folds alone
        doc = fp.parse(f"<{written} a=1><p id=after>x</p>".encode())
        assert doc.find_all()[0].name == name, name
        assert doc.select("#after")[0].name == "p", name
    doc = fp.parse(b"<DIV\x01>x</DIV\x01><div>y</div><annotation-xml>z</annotation-xml>")
    assert [t.name for t in doc.select("div")] == ["div"]
    assert [t.text for t in doc.select("annotation-xml")] == ["z"]


def test_a_name_a_caller_gives_may_start_with_a_digit():
    """A tag's name starts with a letter, so its first code is never 0; a name
    passed to a query need not: "1" packs to 0, and "1p" must not be found as "p"."""
    doc = fp.parse("<p>a</p><h1>b</h1>")
    for name in ["1p", "11p", "1h1", "1div", "2p"]:
        assert doc.find_all(name) == [], name
        assert doc.select(r"\3" + name[0] + " " + name[1:]) == [], name
        assert doc.get_text(skip=[name]) == "ab", name
    assert [t.name for t in doc.find_all(["p", "h1"])] == ["p", "h1"]
    # an unknown context acts as a <div>, where table tags are ignored
    assert [t.name for t in fp.parse_fragment("<tr><td>1", context="1table")] == []
    assert [t.name for t in fp.parse_fragment("<tr><td>1", context="table")] == ["tr", "td"]


def test_a_name_the_input_ends_in_is_no_element():
    """13.2.5.8: end of file in the tag name state emits nothing."""
    for name in ["div", "DIV", "blockquotexyz", "x-card"]:
        assert [t.name for t in fp.parse(f"<p>x<{name}".encode())] == ["p"]


# two characters whose second bytes are one ASCII letter in both cases (Shift_JIS
# 、 and ∥ are 81 41 and 81 61; GBK 丄 and 乤 and EUC-KR 갂 and 갵 likewise; Big5 ，
# and ｛ are A1 41 and A1 61), and one more character
DOUBLE_BYTE = {"shift_jis": ["、", "∥", "ｱ"], "gbk": ["丄", "乤", "中"], "gb18030": ["丄", "乤", "中"],
               "big5": ["，", "｛", "中"], "euc-kr": ["갂", "갵", "한"]}


def _shape(doc) -> list:
    return [(t.name, t.parent.name if t.parent else None, t.attrs, t.text) for t in doc]


def _duplicates(doc) -> int:
    return sum(e.code == "duplicate-attribute" for e in doc.errors)


@pytest.mark.parametrize("charset", sorted(DOUBLE_BYTE))
def test_a_second_byte_that_is_a_letter_keeps_its_case(charset):
    """A tag or attribute name's ASCII upper case folds, but not the second byte
    of a double-byte character, which is no letter ("\\x81\\x41" is 、 and folded
    would be ∥): the names, and the tags an end tag closes, are those of the page
    decoded first and parsed as str."""
    a, b, c = DOUBLE_BYTE[charset]
    src = (f"<meta charset={charset}><X-{a} DATA-{a}=1 data-{b}=2>t<x-{b}>u</X-{a}>v</x-{b}>"
           f"<P><X-{a}{c}A{c} Z{a}=3>w</x-{a}{c}a{c}>")
    data = src.encode(fp.encoding.lookup(charset)[1], "strict")
    doc, twin = fp.parse(data), fp.parse(src)
    assert doc.encoding == charset
    assert _shape(doc) == _shape(twin)
    assert doc.find_all()[1].name == f"x-{a}" and doc.find_all()[1].attrs == {f"data-{a}": "1", f"data-{b}": "2"}
    assert [t.name for t in doc.find_all(f"x-{b}")] == [f"x-{b}"]
    assert [t.name for t in doc.select(f"[data-{a}]")] == [f"x-{a}"]
    assert _duplicates(doc) == _duplicates(twin) == 0   # doc.errors: no duplicate-attribute
    el = next(t for t in doc if f"z{a}" in t.attrs)   # get / in / [] find the name, not its case fold
    assert (el.get(f"Z{a}"), el.get(f"z{b}"), f"z{b}" in el, f"z{a}" in el) == ("3", None, False, True)


def test_double_byte_table_is_generated():
    spec = importlib.util.spec_from_file_location("gen_dbcs", GEN_TAGS.parent / "gen_dbcs.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    header = (GEN_TAGS.parent.parent / "fastparse" / "_core" / "dbcs_gen.h").read_text()
    assert header == gen.render(), "run: python tools/gen_dbcs.py"
