"""The Python API contract of ../shared/DESIGN.md, member by member: parse()
inputs and options, Document, Tag, MISSING, filters, navigation, offsets,
errors, parse_fragment and the Jupyter outline."""
from __future__ import annotations

import re

import pytest

import fastparse as fp

PAGE = ("<html><head><title>T</title></head><body>"
        "<div id=main class='box wide'>"
        "<p class=a>one</p><span id=s>two</span><p class='b a'>three</p><b>four</b>"
        "</div><p id=last>five</p></body></html>")


@pytest.fixture(scope="module")
def doc():
    return fp.parse(PAGE)


def names(tags):
    return [t.name for t in tags]


# ---- parse(): inputs ----

@pytest.mark.parametrize("make", [str, lambda s: s.encode(), lambda s: bytearray(s.encode()),
                                  lambda s: memoryview(s.encode())])
def test_every_input_type_gives_the_same_index(make):
    d = fp.parse(make(PAGE))
    assert names(d) == names(fp.parse(PAGE))
    assert d.find("span").text == "two"


def test_source_is_the_parsed_object_not_a_copy():
    text = PAGE
    data = PAGE.encode()
    assert fp.parse(text).source is text
    assert fp.parse(data).source is data


def test_bytearray_source_is_frozen_into_bytes():
    buf = bytearray(b"<p>a</p>")
    d = fp.parse(buf)
    buf[3:4] = b"z"
    assert isinstance(d.source, bytes)
    assert d.find("p").text == "a"


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview])
def test_bytes_like_sources_decide_the_encoding_as_bytes_do(make):
    data = '<meta charset="windows-1251"><p>Привет</p>'.encode("cp1251")
    d = fp.parse(make(data))
    assert type(d.source) is bytes and d.source == data
    assert d.encoding == "windows-1251"
    assert d.find("p").text == "Привет"


@pytest.mark.parametrize("kwargs", [{}, {"encoding": "utf-8"}, {"max_depth": 100}])
def test_a_view_of_whole_bytes_is_kept_not_copied(kwargs):
    data = b"<p class=x>a</p><p>b</p>"
    assert fp.parse(memoryview(data), **kwargs).source is data
    part = fp.parse(memoryview(data)[16:], **kwargs)   # a part of it: copied
    assert part.source == data[16:] and part.find("p").text == "b"
    wide = fp.parse(memoryview(data).cast("B", (2, 12)), **kwargs)   # C-contiguous, all of it
    assert wide.source is data and wide.find("p").text == "a"


def test_a_bytes_subclass_is_parsed_as_its_bytes():
    class Odd(bytes):
        def __bytes__(self):   # bytes(x) would call it: the buffer is what was given
            return b"<evil>"
    for kwargs in ({}, {"encoding": "utf-8"}):
        d = fp.parse(Odd(b"<p>x"), **kwargs)
        assert [t.name for t in d] == ["p"] and d.source == b"<p>x"


@pytest.mark.parametrize("bad", [None, 12, 1.5, ["<p>"], object()])
def test_parse_rejects_other_types(bad):
    with pytest.raises(TypeError):
        fp.parse(bad)


def test_parse_options_are_keyword_only():
    with pytest.raises(TypeError):
        fp.parse("<p>", "utf-8")


def test_unknown_recovery_is_a_value_error():
    with pytest.raises(ValueError):
        fp.parse("<p>", recovery="lenient")


def test_encoding_of_str_and_bytes():
    assert fp.parse("<p>é").encoding == "utf-8"
    assert fp.parse("<p>é".encode()).encoding == "utf-8"
    assert fp.parse("<p>é".encode("cp1252")).encoding == "windows-1252"
    assert fp.parse(b"<meta charset=koi8-r><p>x").encoding == "koi8-r"
    assert fp.parse(b"<p>x", encoding="latin1").encoding == "windows-1252"


def test_document_cannot_be_constructed_directly():
    with pytest.raises(TypeError):
        fp.Document()
    with pytest.raises(TypeError):
        fp.Tag()


# ---- lazy decoding: the bytes stay as they are, slices decode on demand ----

def test_legacy_encoding_decodes_only_what_is_asked():
    src = '<meta charset="windows-1251"><p class="цена">Привет, мир</p>'
    data = src.encode("cp1251")
    d = fp.parse(data)
    assert d.source is data
    assert d.encoding == "windows-1251"
    p = d.find("p", cls="цена")
    assert p.text == "Привет, мир"
    assert p.html == '<p class="цена">Привет, мир</p>'
    assert p.attrs == {"class": "цена"}
    assert p.span == (src.index("<p"), len(data))
    assert d.find("p", attrs={"class": "цена"}) == p


def test_legacy_text_mixes_source_bytes_and_references():
    d = fp.parse('<meta charset="windows-1251"><p>Ж&amp;&#1046;&euro;</p>'.encode("cp1251"))
    assert d.find("p").text == "Ж&Ж€"


def test_invalid_utf8_is_replaced_only_where_it_is_read():
    data = b'<meta charset=utf-8><p title="a\xffb">x\xfey</p><i>ok</i>'
    d = fp.parse(data)
    assert d.encoding == "utf-8"
    assert d.find("p")["title"] == "a\ufffdb"
    assert d.find("p").text == "x\ufffdy"
    assert d.find("i").text == "ok"


def test_filter_value_unencodable_in_the_document_matches_nothing():
    d = fp.parse('<meta charset="windows-1251"><p id="x">a</p>'.encode("cp1251"))
    assert d.find(id="日本") is fp.MISSING
    assert d.find_all(cls="日本") == []


# ---- Document: sequence protocol ----

def test_len_index_and_iteration(doc):
    assert len(doc) == 10
    assert names(doc) == ["html", "head", "title", "body", "div", "p", "span", "p", "b", "p"]
    assert [t.index for t in doc] == list(range(10))
    assert doc[0].name == "html"
    assert doc[-1].id == "last"
    assert doc[-10] == doc[0]


def test_index_out_of_range(doc):
    with pytest.raises(IndexError):
        doc[10]
    with pytest.raises(IndexError):
        doc[-11]


def test_index_of_wrong_type(doc):
    with pytest.raises(TypeError):
        doc["p"]


def test_slices(doc):
    assert names(doc[5:8]) == ["p", "span", "p"]
    assert names(doc[::-3]) == ["p", "span", "body", "html"]
    assert doc[-2:] == [doc[8], doc[9]]
    assert doc[100:] == []
    assert doc[:] == list(doc)


def test_root(doc):
    assert doc.root == doc[0]
    assert fp.parse("").root is fp.MISSING
    assert fp.parse("only text").root is fp.MISSING
    assert fp.parse("<!-- c --><p>x").root.name == "p"


def test_document_children_are_the_top_level_elements():
    assert [t.name for t in fp.parse("<p>a<p>b<div><i>c</i></div>").children] == ["p", "p", "div"]
    assert fp.parse("").children == [] and fp.parse("text").children == []


def test_empty_document():
    d = fp.parse(b"")
    assert len(d) == 0 and list(d) == []
    assert d.text == ""
    assert d.errors == []
    assert d.find("p") is fp.MISSING
    assert d.find_all() == []
    assert d.find_all("p", limit=3) == []


def test_document_text_and_html(doc):
    assert doc.text == "Tonetwothreefourfive"
    assert doc.get_text("|") == "T|one|two|three|four|five"
    assert doc.html == PAGE
    assert fp.parse(PAGE.encode()).html == PAGE


def test_document_repr_mentions_size_and_encoding(doc):
    r = repr(doc)
    assert "10 elements" in r and "utf-8" in r


# ---- find / find_all ----

def test_find_by_name(doc):
    assert doc.find("p").text == "one"
    assert doc.find("P").text == "one"  # names fold case
    assert doc.find("table") is fp.MISSING
    assert doc.find("no-such-tag") is fp.MISSING
    assert doc.find().name == "html"


def test_find_all_by_name(doc):
    assert [p.text for p in doc.find_all("p")] == ["one", "three", "five"]
    assert doc.find_all("table") == []
    assert len(doc.find_all()) == len(doc)
    assert doc.find_all(None) == list(doc)


def test_find_all_by_any_of_several_names():
    doc = fp.parse("<h1>a</h1><h2>b</h2><p class=x>c</p><ul><li>1<li class=x>2</ul><dl><dt>t<dd>d</dl>")
    def names(tags):
        return [t.name for t in tags]
    assert names(doc.find_all(["h2", "h1"])) == ["h1", "h2"]          # document order, not the list's
    assert names(doc.find_all(("P", "dd", "no-such-tag"))) == ["p", "dd"]
    assert names(doc.find_all({"li", "dt"}, cls="x")) == ["li"]        # with the other filters
    assert names(doc.find_all(frozenset({"li"}), limit=1)) == ["li"]
    assert doc.find(["dd", "h2"]).name == "h2"
    assert doc.find_all([]) == [] and doc.find_all(["no-such-tag"]) == []
    assert doc.find("ul").find_all(["li", "h1"])[1].text == "2"        # scoped to descendants
    assert doc.find("dt").next_sibling(["dd", "li"]).name == "dd"
    assert doc.find("li").prev_sibling(["dd", "li"]) is fp.MISSING
    assert fp.MISSING.find_all(["a"]) == [] and fp.MISSING.find(["a"]) is fp.MISSING
    for bad, message in ([["h1", 3], "items must be str"], [iter(["h1"]), "list, tuple or set"],
                         [{"h1": 1}, "list, tuple or set"]):
        with pytest.raises(TypeError, match=message):
            doc.find_all(bad)
    assert len(doc.find_all([f"x-{k}" for k in range(100)] + ["p"])) == 1   # unknown names cost no room
    with pytest.raises(ValueError, match="at most 64"):
        fp.parse("".join(f"<x-{k}>" for k in range(65))).find_all([f"x-{k}" for k in range(65)])


def test_beautifulsoups_keywords_are_named_in_the_error():
    doc = fp.parse("<p class=x><a href=y>")
    with pytest.raises(TypeError, match=r"'class_' \(here cls=, which matches class tokens"):
        doc.find_all("p", class_="x")
    # any other keyword is an attribute filter in BeautifulSoup, or a misspelling
    with pytest.raises(TypeError, match=r"'klass' \(an attribute\? attrs=\{'klass': value or True\}\)$"):
        doc.find("p", klass="x")
    with pytest.raises(TypeError, match=r"'href' \(an attribute\? attrs=\{'href': value or True\}\)$"):
        doc.find("p").next_sibling("a", href=True)
    with pytest.raises(TypeError, match=r"'string' \(no text filter here: test tag.text\)$"):
        doc.find_all("p", string="x")
    with pytest.raises(TypeError, match=r"'recursive' \(direct children: tag.children\)$"):
        doc.find("p").find_all(recursive=False)
    with pytest.raises(TypeError, match=r"'limit'$"):   # find_all's, not an attribute
        doc.find("p", limit=1)
    # BeautifulSoup's second positional argument: attributes, or a class as a str
    with pytest.raises(TypeError, match=r"\(2 given\) \(attributes go in attrs=, values matched exactly\)$"):
        doc.find("p", {"class": "x"})
    with pytest.raises(TypeError, match=r"\(2 given\) \(a class goes in cls=\)$"):
        doc.find_all("p", "x")
    with pytest.raises(TypeError, match=r"\(2 given\)$"):
        doc.find("p", 1)


def test_find_all_names_in_a_legacy_document():
    doc = fp.parse('<meta charset=windows-1251><my-\u0436>a</my-\u0436><p>b</p>'.encode("cp1251"))
    assert [t.text for t in doc.find_all(["my-\u0436", "p"])] == ["a", "b"]


def test_find_by_id(doc):
    assert doc.find(id="s").name == "span"
    assert doc.find("p", id="s") is fp.MISSING
    assert doc.find(id="S") is fp.MISSING  # ids are case-sensitive


def test_cls_matches_class_tokens(doc):
    assert [t.text for t in doc.find_all(cls="a")] == ["one", "three"]
    assert names(doc.find_all(cls="wide")) == ["div"]
    # several tokens: all of them, in any order, as .a.b
    assert [t.text for t in doc.find_all(cls="a b")] == ["three"] == [t.text for t in doc.select(".a.b")]
    assert [t.text for t in doc.find_all(cls=" b\ta ")] == ["three"]
    assert doc.find_all(cls="a c") == [] and doc.find_all(cls="b a wide") == []
    assert doc.find_all(cls="bo") == []   # whole tokens only
    assert fp.parse("<p class=' x\ty\n'>").find(cls="y").name == "p"
    # no class list holds an empty token, not even one with whitespace at its end
    spaced = fp.parse('<p class="a ">1</p><p class=" ">2</p><p class="">3</p><p>4</p>')
    assert spaced.find_all(cls="") == [] and spaced.find(cls="") is fp.MISSING
    assert spaced[0].next_sibling(cls="") is fp.MISSING
    assert spaced.find_all(cls=" \t ") == []   # no token at all


def test_cls_ignores_ascii_case_in_quirks_mode_as_class_selectors_do():
    quirks = fp.parse("<p class='Price Big' id=Main>1</p><p class=price>2</p>")
    assert quirks.quirks
    assert [t.text for t in quirks.find_all(cls="price")] == ["1", "2"] == [t.text for t in quirks.select(".price")]
    assert [t.text for t in quirks.find_all(cls="BIG price")] == ["1"]
    assert quirks.find(cls="pr\u0130ce") is fp.MISSING   # ASCII case only
    assert quirks.find(id="main") is fp.MISSING and quirks.find(id="Main")   # as getElementById
    standard = fp.parse("<!DOCTYPE html><p class='Price'>1</p>")
    assert standard.find(cls="price") is fp.MISSING and standard.select(".price") == []


def test_attrs_exact_values_and_presence():
    d = fp.parse('<a href="/x" data-k="1">a</a><a data-k="2">b</a><a href="">c</a><a HREF=/y>d</a>')
    assert [a.text for a in d.find_all(attrs={"href": True})] == ["a", "c", "d"]
    assert [a.text for a in d.find_all(attrs={"data-k": "1"})] == ["a"]
    assert [a.text for a in d.find_all(attrs={"href": "/x", "data-k": "1"})] == ["a"]
    assert d.find_all(attrs={"href": "/x", "data-k": "2"}) == []
    assert [a.text for a in d.find_all(attrs={"HREF": "/y"})] == ["d"]
    assert [a.text for a in d.find_all(attrs={"href": ""})] == ["c"]
    assert d.find_all(attrs={"title": True}) == []
    assert d.find_all(attrs={}) == list(d)


def test_attrs_filter_compares_decoded_values():
    d = fp.parse('<a href="?a=1&amp;b=2">x</a>')
    assert d.find(attrs={"href": "?a=1&b=2"}).text == "x"


def test_filters_combine(doc):
    assert doc.find("p", cls="a", attrs={"class": "b a"}).text == "three"
    assert doc.find("span", cls="a") is fp.MISSING


def test_limit(doc):
    assert [p.text for p in doc.find_all("p", limit=2)] == ["one", "three"]
    assert doc.find_all("p", limit=0) == []
    assert len(doc.find_all("p", limit=10**12)) == 3
    assert len(doc.find_all("p", limit=10**30)) == 3   # past a C long long: still "all"
    assert len(doc.find_all("p", limit=None)) == 3
    for negative in (-1, -10**30):
        with pytest.raises(ValueError, match="limit must be >= 0"):
            doc.find_all("p", limit=negative)


@pytest.mark.parametrize("kwargs", [
    {"name": 1}, {"name": b"p"}, {"id": 1}, {"cls": b"a"}, {"cls": ["a"]},
    {"attrs": [("href", True)]}, {"attrs": {1: "x"}}, {"attrs": {"href": 1}},
    {"limit": "2"}, {"limit": 2.0},
])
def test_wrong_filter_types_raise_type_error(doc, kwargs):
    with pytest.raises(TypeError):
        doc.find_all(**kwargs)
    if "limit" not in kwargs:
        with pytest.raises(TypeError):
            doc.find(**kwargs)
        with pytest.raises(TypeError):
            doc[0].find(**kwargs)
        with pytest.raises(TypeError):
            doc[-1].find_all(**kwargs)  # no descendants: arguments still checked
        with pytest.raises(TypeError):
            doc[5].next_sibling(**kwargs)


def test_find_has_no_limit(doc):
    with pytest.raises(TypeError):
        doc.find("p", limit=1)


def test_find_accepts_attrs(doc):
    assert doc.find(attrs={"id": "s"}).name == "span"
    assert doc.find("div").find("p", attrs={"class": True}).text == "one"


def test_limit_rejects_bool(doc):
    with pytest.raises(TypeError):
        doc.find_all("p", limit=True)


def test_find_filters_are_keyword_only(doc):
    with pytest.raises(TypeError):
        doc.find("p", "s")


def test_find_keywords_parse_as_python_would(doc):
    # find/find_all/next_sibling parse vectorcall arguments themselves (py_document.c)
    cls = "".join(["c", "l", "s"])   # noqa: FLY002  (a keyword that is not the interned literal)
    assert doc.find(**{cls: "b"}).text == "three"
    assert doc.find_all(**{"".join(["lim", "it"]): 1}) == doc.find_all()[:1]   # noqa: FLY002
    with pytest.raises(TypeError, match="multiple values for argument 'name'"):
        doc.find("p", name="p")
    with pytest.raises(TypeError, match="unexpected keyword argument 'nme'"):
        doc.find(nme="p")
    with pytest.raises(TypeError, match=r"at most 1 positional argument \(2 given\)"):
        doc.find_all("p", "q")
    with pytest.raises(TypeError, match="next_sibling.*'limit'"):
        doc[2].next_sibling(limit=1)


@pytest.mark.parametrize("charset", ["utf-8", "windows-1251"])
def test_find_filters_in_the_documents_encoding(charset):
    # ASCII and UTF-8 filters are read from the str itself; others are encoded
    page = (f'<meta charset="{charset}"><p class="\u0436 x" id="\u0451" DATA-K="\u0439">a</p>'
            '<p data-k="v" class=x>b</p>')
    doc = fp.parse(page.encode(charset))
    assert doc.find(cls="\u0436").text == "a" and doc.find(id="\u0451").text == "a"
    assert [p.text for p in doc.find_all(attrs={"Data-K": True})] == ["a", "b"]
    assert doc.find(attrs={"DATA-K": "\u0439"}).text == "a"
    assert doc.find(cls="\u4e2d") is fp.MISSING          # not in windows-1251: matches nothing
    many = {f"data-{k}": "\u0436" for k in range(32)}   # 32 filters, each value encoded
    assert doc.find_all(attrs=many) == []
    with pytest.raises(ValueError, match="at most 32"):
        doc.find_all(attrs={**many, "id": True})


def test_tag_find_is_scoped_to_descendants(doc):
    div = doc.find("div")
    assert [p.text for p in div.find_all("p")] == ["one", "three"]
    assert div.find(id="last") is fp.MISSING
    assert div.find("div") is fp.MISSING  # not itself
    assert div.find_all(cls="box") == []
    assert doc.find("span").find_all() == []
    assert doc.find("span").find() is fp.MISSING


# ---- CSS ----

def test_select_and_select_one(doc):
    assert [t.text for t in doc.select("div > p.a")] == ["one", "three"]
    assert doc.select_one("#last").text == "five"
    assert doc.select_one("table") is fp.MISSING
    assert doc.select("table") == []
    div = doc.find("div")
    assert names(div.select("*")) == ["p", "span", "p", "b"]
    assert div.select_one("p").text == "one"
    assert div.select_one("#last") is fp.MISSING


def test_matches_and_closest(doc):
    p = doc.find("p")
    assert p.matches("div > p.a")
    assert not p.matches("span")
    assert p.closest("div").id == "main"
    assert p.closest("p") == p
    assert p.closest("table") is fp.MISSING


def test_bad_selector_raises_selector_error(doc):
    with pytest.raises(fp.SelectorError):
        doc.select("p[")


# ---- Tag: names and attributes ----

def test_name_is_lower_case():
    # but for the SVG names the DOM writes in camel case, whatever the source's case
    d = fp.parse("<DIV><My-Widget></My-Widget></DIV><svg><foreignObject/><LINEARGRADIENT/><Rect/></svg>"
                 "<math><clippath/></math><clipPath></clipPath>")
    assert names(d) == ["div", "my-widget", "svg", "foreignObject", "linearGradient", "rect", "math", "clippath",
                        "clippath"]


def test_attrs_lower_case_names_first_duplicate_wins():
    d = fp.parse('<p ID=x Class="A  B" id=y data-X=1 hidden>')
    assert d[0].attrs == {"id": "x", "class": "A  B", "data-x": "1", "hidden": ""}


def test_attr_values_quoted_unquoted_empty():
    d = fp.parse("<a b c=\"\" d= e=f g='h i' j=\"k'l\" m='n\"o'>")
    # "d= e=f": the value state skips whitespace, so d's value is "e=f"
    assert d[0].attrs == {"b": "", "c": "", "d": "e=f", "g": "h i", "j": "k'l", "m": 'n"o'}


def _attrs_by_the_spec(k: int, b: int) -> tuple[dict, str]:
    """<p {a * k}{chr(b)}z=v>: the attributes the HTML tokenizer makes, and what follows."""
    name = "a" * k
    if chr(b) in "\t\n\f\r /":      # the name ends; '/' not before '>' is stepped over
        return ({name: ""} if k else {}) | {"z": "v"}, ""
    if chr(b) == ">":                 # the tag ends
        return ({name: ""} if k else {}), "z=v>"
    if chr(b) == "=":                 # a value follows, unless '=' starts the name
        return ({name: "z=v"} if k else {"=z": "v"}), ""
    return {name + chr(b).lower() + "z": "v"}, ""   # any other byte is part of the name


@pytest.mark.parametrize("k", [0, 1, 14, 15, 16, 17])
def test_every_ascii_byte_in_an_attribute_name(k):
    # the name's end is found 16 bytes at a time when 16 bytes remain (a long text follows),
    # a byte at a time past them: either way only whitespace, '/', '>' and '=' end a name
    tail = "x" * 40
    for b in range(1, 0x80):
        attrs, text = _attrs_by_the_spec(k, b)
        d = fp.parse(f"<p {'a' * k}{chr(b)}z=v>{tail}</p>")
        assert (d[0].attrs, d[0].text) == (attrs, text + tail), (k, hex(b))


def test_a_nul_in_an_attribute_name_is_u_fffd_for_every_lookup():
    # the tokenizer makes a raw NUL in a name U+FFFD: asked for by NUL, nothing is
    # there, whether the raw name is as long as the one asked for or shorter
    for src in ("<p \x00=1 a=2>x", "<p a\x00=1 a=2>x"):
        t = fp.parse(src).find("p")
        name = next(iter(t.attrs))
        assert "\ufffd" in name and t.get(name) == "1" and name in t
        asked = name.replace("\ufffd", "\x00")
        assert t.get(asked) is None and asked not in t
        assert fp.parse(src).find_all(attrs={asked: True}) == []


def test_get_getitem_contains():
    t = fp.parse('<a href="/x" Title="t" empty>y</a>')[0]
    assert t.get("href") == "/x"
    assert t.get("HREF") == "/x"
    assert t.get("title") == "t"
    assert t.get("nope") is None
    assert t.get("nope", "d") == "d"
    assert t.get("empty") == ""
    assert t["href"] == "/x"
    with pytest.raises(KeyError):
        t["nope"]
    assert "href" in t and "Title" in t and "empty" in t
    assert "nope" not in t
    with pytest.raises(TypeError):
        t.get(1)
    with pytest.raises(TypeError):
        t[b"href"]
    with pytest.raises(TypeError):
        t.get()


def test_get_non_ascii_names_and_long_decoded_values():
    long = "x&amp;" * 100 + "\r\ny"
    t = fp.parse(f'<a data-é="1" HREF="{long}">'.encode())[0]
    assert t.get("data-é") == "1" and t.get("DATA-é") == "1"
    assert t.get("href") == "x&" * 100 + "\ny"
    legacy = fp.parse(f'<meta charset=windows-1252><a data-é="2" title="{long}">'.encode("cp1252"))[1]
    assert legacy.get("data-é") == "2"
    assert legacy.get("title") == "x&" * 100 + "\ny"
    assert legacy.get("data-☃") is None  # not writable in windows-1252


def test_id_and_classes():
    d = fp.parse("<p id=a class=' x  y\tz\n'><p><p class=''>")
    assert d[0].id == "a"
    assert d[0].classes == ["x", "y", "z"]
    assert d[1].id is None and d[1].classes == []
    assert d[2].classes == []


# ---- Tag: source slices and positions ----

def test_html_and_inner_html(doc):
    div = doc.find("div")
    assert div.html.startswith("<div id=main") and div.html.endswith("</div>")
    assert div.inner_html == ("<p class=a>one</p><span id=s>two</span>"
                              "<p class='b a'>three</p><b>four</b>")
    assert doc.find("span").html == "<span id=s>two</span>"


def test_unclosed_element_html_runs_to_where_it_closed():
    d = fp.parse("<ul><li>a<li>b</ul>")
    assert [li.html for li in d.find_all("li")] == ["<li>a", "<li>b"]
    assert [li.inner_html for li in d.find_all("li")] == ["a", "b"]


def test_span_indexes_str_source():
    src = "<p>é</p>\n  <b>ü</b><i>x</i>"
    d = fp.parse(src)
    for t in d:
        assert src[slice(*t.span)] == t.html
        assert src[slice(*t.inner_span)] == t.inner_html
    assert [t.span for t in d] == [(0, 8), (11, 19), (19, 27)]
    assert d.find("b").inner_span == (14, 15)


def test_span_indexes_bytes_source():
    data = "<p>é</p>\n  <b>ü</b><i>x</i>".encode()
    d = fp.parse(data)
    for t in d:
        assert data[slice(*t.span)].decode() == t.html
        assert data[slice(*t.inner_span)].decode() == t.inner_html
    assert [t.span for t in d] == [(0, 9), (12, 21), (21, 29)]


def test_span_with_utf8_bom_indexes_the_source_including_the_bom():
    data = b"\xef\xbb\xbf<p>\xc3\xa9</p>\n<b>x</b>"
    d = fp.parse(data)
    assert d.source is data and d.encoding == "utf-8"
    assert d.find("p").span == (3, 12)
    assert d.find("b").span == (13, 21)
    for t in d:
        assert data[slice(*t.span)].decode() == t.html


def test_span_of_utf16_input_indexes_the_transcoded_source():
    d = fp.parse('<p class="é">ü</p>'.encode("utf-16"))
    assert d.encoding == "utf-16le"
    assert isinstance(d.source, bytes)
    p = d.find("p")
    assert d.source[slice(*p.span)].decode() == p.html == '<p class="é">ü</p>'
    assert p.attrs == {"class": "é"}


def test_line_and_col_ascii():
    d = fp.parse("<p>\n  <a\nhref=1>x</a>\r\n<i>")
    assert [(t.line, t.col) for t in d] == [(1, 1), (2, 3), (4, 1)]


def test_a_lone_cr_ends_a_line():
    # the HTML Standard normalises CR and CR LF to LF before tokenizing
    d = fp.parse("<p>\r<a>x</a>\r\n<i>")
    assert [(t.line, t.col) for t in d] == [(1, 1), (2, 1), (3, 1)]


def test_col_counts_code_points_for_str_and_bytes_for_bytes():
    src = "<p>éé<b>x</b>\nü<i>y</i>"
    s, b = fp.parse(src), fp.parse(src.encode())
    assert [(t.line, t.col) for t in s] == [(1, 1), (1, 6), (2, 2)]
    assert [(t.line, t.col) for t in b] == [(1, 1), (1, 8), (2, 3)]


def test_col_of_bytes_with_bom_is_consistent_with_the_offset():
    # offsets index doc.source (the BOM included); a column is "offset - the
    # offset of the line's start + 1" in the same units, on every line.
    data = b"\xef\xbb\xbf<p>a</p><b>x</b>\n<i>y</i>"
    d = fp.parse(data)
    for t in d:
        start = t.span[0]
        assert t.col == start - (data.rfind(b"\n", 0, start) + 1) + 1, t


def test_depth_index_document_namespace(doc):
    assert [t.depth for t in doc] == [0, 1, 2, 1, 2, 3, 3, 3, 3, 2]
    assert all(doc[t.index] == t for t in doc)
    assert doc.find("b").document is doc
    d = fp.parse("<p><svg><circle/><foreignObject><i>x</i></foreignObject></svg><math><mi>")
    assert [(t.name, t.namespace) for t in d] == [
        ("p", "html"), ("svg", "svg"), ("circle", "svg"), ("foreignObject", "svg"),
        ("i", "html"), ("math", "math"), ("mi", "math")]


# ---- Tag: navigation ----

def test_parent_children_descendants(doc):
    div = doc.find("div")
    assert div.parent.name == "body"
    assert doc.root.parent is fp.MISSING
    assert names(div.children) == ["p", "span", "p", "b"]
    assert names(doc.root.children) == ["head", "body"]
    assert names(doc.find("head").descendants) == ["title"]
    assert names(doc.find("body").descendants) == ["div", "p", "span", "p", "b", "p"]
    assert doc.find("span").children == [] and doc.find("span").descendants == []


def test_next_and_prev_in_document_order(doc):
    assert doc.find("title").next.name == "body"
    assert doc[-1].next is fp.MISSING
    assert doc[0].prev is fp.MISSING
    assert doc.find("body").prev.name == "title"


def test_siblings(doc):
    span = doc.find("span")
    assert span.next_sibling().text == "three"
    assert span.prev_sibling().text == "one"
    assert span.next_sibling("b").text == "four"
    assert span.next_sibling("span") is fp.MISSING
    assert span.next_sibling(cls="b").text == "three"
    assert span.prev_sibling("p", cls="a").text == "one"
    assert span.prev_sibling(attrs={"class": "a"}).text == "one"
    assert doc.find("b").next_sibling() is fp.MISSING  # last child of div
    assert doc.find("p").prev_sibling() is fp.MISSING
    assert doc.find("div").next_sibling(id="last").text == "five"
    assert doc.find("head").next_sibling().name == "body"
    assert doc.find("body").prev_sibling().name == "head"


def test_siblings_at_top_level():
    d = fp.parse("<p>a</p><div><p>b</p></div><p>c</p>")
    assert d[0].next_sibling("p").text == "c"
    assert d[-1].prev_sibling().name == "div"
    assert d[-1].prev_sibling("p").text == "a"


def test_tag_equality_hash_bool_repr(doc):
    a, b = doc.find("span"), doc.find(id="s")
    assert a == b and a is not b and hash(a) == hash(b)
    assert a != doc.find("b")
    assert len({a, b, doc[0]}) == 2
    assert a != fp.parse(PAGE).find("span")  # another document
    assert bool(fp.parse("<br>")[0]) is True  # a found tag is truthy even when empty
    r = repr(a)
    assert "span" in r and "#s" in r and "6" in r
    odd = fp.parse('<p id="">x</p><p id=" a b">y</p>')
    assert repr(odd[0]).startswith("<Tag p id='' #0 ") and repr(odd[1]).startswith("<Tag p id=' a b' #1 ")


# ---- MISSING ----

def test_missing_chains_safely(doc):
    assert doc.find("x").find("y").text is None
    assert doc.find("x").find("y").get("href") is None
    assert doc.find("x").parent.next.prev.next_sibling("p").prev_sibling().text is None
    assert doc.find("div").find("table").find("td").get_text() is None
    assert doc.find("x").select_one("p").closest("div") is fp.MISSING


def test_missing_values():
    m = fp.MISSING
    assert not m and bool(m) is False
    assert list(m) == [] and len(m) == 0
    assert m.get("a") is None and m.get("a", 5) == 5
    assert m["a"] is None and "a" not in m
    assert m.find_all("p") == [] and m.select("p") == []
    assert m.matches("p") is False
    assert m.children == [] and m.descendants == []
    assert m.attrs == {} and m.classes == []
    for attr in ("name", "text", "html", "inner_html", "id", "span", "inner_span", "line",
                 "col", "depth", "index", "closed_by", "namespace", "document"):
        assert getattr(m, attr) is None, attr
    for attr in ("parent", "next", "prev"):
        assert getattr(m, attr) is m
    assert repr(m) == "MISSING"


def test_missing_takes_the_calls_a_tag_takes(doc):
    # chains are safe when nothing matches, not when the call itself is wrong: a call a
    # Tag refuses fails on MISSING as well, on the first page where a step matches nothing
    tag, m = doc.find("p"), fp.MISSING
    for call in (lambda t: t.find("div", {"a": "1"}), lambda t: t.find_all("p", class_="x"),
                 lambda t: t.next_sibling("p", "q"), lambda t: t.get_text("", False, (), True),
                 lambda t: t.select(css="p"), lambda t: t.get("a", None, 1)):
        with pytest.raises(TypeError):
            call(tag)
        with pytest.raises(TypeError):
            call(m)
    assert m.find("p", id="x", cls="y", attrs={"a": True}) is m
    assert m.find_all(["p"], limit=2) == [] and m.get_text(" ", True, ("script",), collapse=True) is None


def test_missing_checks_argument_values_as_a_tag_does(doc):
    # the values too, with the Tag's exception and message (MISSING checks them on a Tag)
    tag, m = doc.find("p"), fp.MISSING
    for call in (lambda t: t.find(1), lambda t: t.find(attrs={"x": 1}), lambda t: t.find(cls=1),
                 lambda t: t.find_all(limit=-1), lambda t: t.find_all(limit="2"), lambda t: t.get_text(1),
                 lambda t: t.next_sibling(1), lambda t: t.prev_sibling(id=2), lambda t: t.get(1),
                 lambda t: t.find_all(class_="x"), lambda t: t.select(["p"])):
        with pytest.raises((TypeError, ValueError)) as on_tag:
            call(tag)
        with pytest.raises(on_tag.type, match=re.escape(str(on_tag.value))):
            call(m)


def test_missing_checks_selectors_as_a_tag_does(doc):
    tag, m = doc.find("p"), fp.MISSING
    for method in ("select", "select_one", "closest", "matches"):
        for bad, error in (("p[", fp.SelectorError), ("a >", fp.SelectorError), (3, TypeError)):
            with pytest.raises(error):
                getattr(tag, method)(bad)
            with pytest.raises(error):
                getattr(m, method)(bad)
    assert m.select("p") == [] and m.select_one("p") is m and m.matches("p") is False


def test_missing_is_a_singleton_that_pickles():
    import copy
    import pickle

    m = fp.MISSING
    assert type(m)() is m
    assert pickle.loads(pickle.dumps(m)) is m
    assert copy.deepcopy(m) is m


# ---- errors ----

@pytest.mark.parametrize("src, code, offset", [
    ("<div", "eof-in-tag", 4),
    ("<p>x</span>", "unexpected-end-tag", 4),
    ("<!-- x", "eof-in-comment", 6),
    ("<?php x", "eof-in-processing-instruction", 7),
    ("<?1>", "invalid-first-character-of-processing-instruction-target", 2),
    ("<?a.b>", "invalid-processing-instruction-target", 3),
    ('<?xml version="1.0"?>', "disallowed-processing-instruction-target", 5),
    ("a < b", "invalid-first-character-of-tag-name", 2),
    ("</>", "missing-end-tag-name", 0),
    ("<div/>", "non-void-html-element-start-tag-with-trailing-solidus", 0),
    ("<p></p x=1>", "end-tag-with-attributes", 3),
    ("<p></p/>", "end-tag-with-trailing-solidus", 3),
    ("<!x>", "incorrectly-opened-comment", 0),
    ("<script><!--<script>", "eof-in-script-html-comment-like-text", 20),
])
def test_error_codes_and_offsets(src, code, offset):
    errors = fp.parse(src).errors
    assert (code, offset) in [(e.code, e.offset) for e in errors], errors


@pytest.mark.parametrize("src, code, offset", [
    ("<!DOCTYPE", "eof-in-doctype", 9),
    ("<svg><![CDATA[x", "eof-in-cdata", 15),
    ("x<", "eof-before-tag-name", 1),
    ("<!-->", "abrupt-closing-of-empty-comment", 0),
    ("<!--->x", "abrupt-closing-of-empty-comment", 0),
])
def test_more_tokenizer_error_codes(src, code, offset):
    assert (code, offset) in [(e.code, e.offset) for e in fp.parse(src).errors]


@pytest.mark.parametrize("src, wrong", [
    ("<!-->", "eof-in-comment"),          # a complete (empty) comment
    ("<!--->", "eof-in-comment"),
    ("<script>x", "eof-in-script-html-comment-like-text"),  # no "<!--" in the script
])
def test_no_wrong_error_codes(src, wrong):
    assert wrong not in [e.code for e in fp.parse(src).errors]


def test_error_entries_are_named_tuples_with_line_and_col():
    src = "<p>\n<a\nhref=1>x</a></p></div>"
    (e,) = fp.parse(src).errors
    assert isinstance(e, fp.ParseError)
    assert e == ("unexpected-end-tag", 23, 3, 17)
    assert e.code == "unexpected-end-tag" and e.line == 3 and e.col == 17
    assert src[e.offset:].startswith("</div>")


def test_error_offsets_index_the_source():
    src = "<p>é</p></div>"
    assert fp.parse(src).errors[0].offset == src.index("</div>")
    data = src.encode()
    assert fp.parse(data).errors[0].offset == data.index(b"</div>")
    bom = b"\xef\xbb\xbf" + data
    assert fp.parse(bom).errors[0].offset == bom.index(b"</div>")


def test_a_clean_document_has_no_errors(doc):
    assert doc.errors == []


# ---- recovery, scripting ----

def test_recovery_none_nests_as_written():
    src = "<p>a<div>b</div></p><ul><li>x<li>y</ul>"
    html5 = fp.parse(src)
    none = fp.parse(src, recovery="none")
    assert [(t.name, t.depth) for t in html5] == [   # the </p> after the div: an empty <p>
        ("p", 0), ("div", 0), ("p", 0), ("ul", 0), ("li", 1), ("li", 1)]
    assert [(t.name, t.depth) for t in none] == [
        ("p", 0), ("div", 1), ("ul", 0), ("li", 1), ("li", 2)]
    assert none.find("div").parent.name == "p"
    assert [t.closed_by for t in none] == ["end-tag", "end-tag", "end-tag", "parent-end", "parent-end"]


def test_recovery_none_keeps_void_and_raw_text_rules():
    d = fp.parse("<div><br><script>a</div>b</script><x/></div>", recovery="none")
    assert [(t.name, t.depth, t.closed_by) for t in d] == [
        ("div", 0, "end-tag"), ("br", 1, "void"), ("script", 1, "end-tag"),
        ("x", 1, "self-closing")]
    assert d.find("script").text == "a</div>b"


def test_scripting_makes_noscript_raw_text():
    src = "<body><noscript><p>x</p></noscript><p>y"
    on = fp.parse(src, scripting=True)
    off = fp.parse(src)
    assert names(on) == ["body", "noscript", "p"]
    assert on.find("noscript").text == "<p>x</p>"
    assert names(off) == ["body", "noscript", "p", "p"]
    assert off.find("noscript").text == "x"


# ---- parse_fragment ----

def test_parse_fragment_default_context_is_div():
    f = fp.parse_fragment("<li>a<li>b")
    assert [(t.name, t.closed_by) for t in f] == [("li", "implied"), ("li", "eof")]
    assert isinstance(f, fp.Document)


def test_parse_fragment_table_context():
    f = fp.parse_fragment("<td>a<td>b", context="tr")
    assert [(t.name, t.depth, t.closed_by) for t in f] == [("td", 0, "implied"), ("td", 0, "eof")]


def test_parse_fragment_svg_context():
    f = fp.parse_fragment("<circle/><rect></rect>", context="svg")
    assert [(t.name, t.namespace, t.closed_by) for t in f] == [
        ("circle", "svg", "self-closing"), ("rect", "svg", "end-tag")]


@pytest.mark.parametrize("context", ["textarea", "title", "script", "style"])
def test_parse_fragment_raw_text_context_makes_everything_text(context):
    f = fp.parse_fragment("<p>x</p>", context=context)
    assert len(f) == 0
    assert f.text == "<p>x</p>"


@pytest.mark.parametrize("context", ["svg title", "svg style", "svg script", "math title"])
def test_parse_fragment_foreign_context_of_a_raw_text_name_is_markup(context):
    # an SVG <title> or <style> is not a raw-text element: its content is parsed,
    # and the text is the elements' text, not the source (foreign-fragment.dat 8, 45)
    f = fp.parse_fragment("<div>a&amp;b</div></title>c", context=context)
    assert [t.name for t in f] == ["div"]
    assert f.text == "a&bc"


def test_parse_fragment_context_type():
    with pytest.raises(TypeError):
        fp.parse_fragment("<p>", context=1)
    assert len(fp.parse_fragment("<p>", context="DIV")) == 1


@pytest.mark.parametrize("context", ["", " ", "t d", "div/", "a>b", "svg ", "svg  title", "div\n"])
def test_parse_fragment_context_must_be_a_tag_name(context):
    with pytest.raises(ValueError, match="context must be a tag name"):
        fp.parse_fragment("<p>", context=context)


def test_parse_fragment_unknown_context_name_acts_as_div():
    assert [t.name for t in fp.parse_fragment("<li>a<li>b", context="my-widget")] == ["li", "li"]
    assert [t.name for t in fp.parse_fragment("<li>a", context="a<b")] == ["li"]


# ---- Jupyter outline ----

def test_repr_html_is_a_readable_outline():
    d = fp.parse("<div id=a><p class=x>hi <script>alert('<b>')</script></p></div>")
    out = d._repr_html_()
    assert isinstance(out, str)
    assert "div" in out and "p" in out
    assert "<script>" not in out  # source is escaped, never injected
    tag_out = d.find("p")._repr_html_()
    assert isinstance(tag_out, str) and "p" in tag_out


def test_repr_html_of_a_large_document_is_bounded():
    d = fp.parse("<ul>" + "<li>item</li>" * 20000 + "</ul>")
    assert len(d._repr_html_()) < 100_000
    assert fp.MISSING._repr_html_() == "<code>MISSING</code>"


# ---- comments and the doctype ----

def test_comments_in_document_order_with_positions():
    d = fp.parse("<!-- a --><p>x<!--b\r\nc-->\n<?php! echo 1 ?></ x><!x><![CDATA[y]]>"
                 "<svg><![CDATA[z]]></svg><script><!--not--></script><!--open")
    assert [c.text for c in d.comments] == [" a ", "b\nc", "?php! echo 1 ?", " x", "x", "[CDATA[y]]",
                                            "open"]
    first, second, php = d.comments[:3]
    assert (first.offset, first.line, first.col) == (0, 1, 1)
    assert d.source[second.offset:].startswith("<!--b")
    assert (php.line, php.col) == (3, 1)
    assert isinstance(first, fp.Comment) and first.text == first[0]


# HTML Standard 13.2.5.72-76 (2026-06): "<?" and an ASCII letter or "_" open a processing
# instruction, which ends at the first ">" as the bogus comment it used to be did
@pytest.mark.parametrize("src, instructions, comments", [
    ("<?php echo 1 ?>", [("php", "echo 1 ")], []),
    ("<p><?target   data here?>x", [("target", "data here")], []),
    ("<?Mixed-Case_9 a=1>", [("Mixed-Case_9", "a=1")], []),   # the target keeps its case
    ("<?_u>", [("_u", "")], []),
    ("<?t?>", [("t", "")], []),
    ("<?t ??>", [("t", "?")], []),                  # only the "?" before ">" closes it
    ("<?t?d?>", [("t", "?d")], []),
    ("<?t a > b?>", [("t", "a ")], []),              # ">" always closes it: " b?>" is text
    ("<?t\r\nx\x00?>", [("t", "x\ufffd")], []),
    ('<?xml version="1.0"?>', [], ['?xml version="1.0"?']),   # xml and xml-stylesheet stay comments
    ("<?XML-Stylesheet href=a?>", [], ["?XML-Stylesheet href=a?"]),
    ("<?1st>", [], ["?1st"]), ("<?a.b c>", [], ["?a.b c"]), ("<? x>", [], ["? x"]), ("<?>", [], ["?"]),
    ("<?t data", [], []), ("<?t", [], []), ("<?", [], []),   # cut by the end of input: nothing
])
def test_processing_instructions(src, instructions, comments):
    d = fp.parse(src)
    assert [(pi.target, pi.data) for pi in d.processing_instructions] == instructions
    assert [c.text for c in d.comments] == comments


def test_processing_instructions_are_records_with_positions_and_make_no_elements():
    d = fp.parse("<ul>\n<?marker name=x?><li>a<?start?></li></ul>")
    first, second = d.processing_instructions
    assert isinstance(first, fp.ProcessingInstruction) and first == ("marker", "name=x", 5, 2, 1)
    assert d.source[second.offset:].startswith("<?start") and (second.line, second.col) == (2, 23)
    assert [t.name for t in d] == ["ul", "li"] and d.find("li").text == "a" and d.comments == []
    assert fp.parse("<p><?x?></p>").select("p:empty")   # like a comment, no content


@pytest.mark.parametrize("src, text", [
    ("<!---->", ""), ("<!-->", ""), ("<!--->", ""), ("<!--a--->", "a-"), ("<!--a--!>", "a"),
    ("<!--a--!b-->", "a--!b"), ("<!--a\x00b-->", "a\ufffdb"), ("<!--a &amp; b-->", "a &amp; b"),
    ("<!--", ""), ("<!--x-", "x"), ("<!--x--", "x"), ("<!--x---", "x-"), ("<!--x--!", "x"),
])
def test_comment_data_as_the_tokenizer_builds_it(src, text):
    assert [c.text for c in fp.parse(src).comments] == [text]


def test_comments_from_bytes_use_byte_offsets_and_the_encoding():
    d = fp.parse("<p>é<!--ü-->".encode("windows-1252"), encoding="windows-1252")
    assert d.comments == [fp.Comment("ü", 4, 1, 5)]
    assert fp.parse(b"<p>").comments == []


@pytest.mark.parametrize("src, name", [
    ("<!DOCTYPE html>", "html"), ("<!doctype HTML PUBLIC '-//W3C//DTD HTML 4.01//EN'>", "html"),
    ("<!-- c --> <!DOCTYPE Svg>", "svg"), ("<!DOCTYPE>", ""), ("<!DOCTYPEhtml>", "html"),
    ("<!DOCTYPE ÉcolE>", "École"), ("<p><!DOCTYPE html>", None), ("x<!DOCTYPE html>", None),
    ("<p>", None),
])
def test_doctype_name(src, name):
    assert fp.parse(src).doctype == name


def test_text_before_a_doctype_means_quirks_mode():
    # the doctype after text is ignored, so <table> does not close <p> (quirks mode)
    assert fp.parse("x<!DOCTYPE html><p><table>").find("table").parent.name == "p"
    assert fp.parse("<!DOCTYPE html>x<p><table>").find("table").parent is fp.MISSING


def test_parse_entry_point_takes_every_call_form():
    # fp.parse is C (plain bytes go straight to the engine); every other call
    # goes to the Python parse() and must behave as it always has
    import inspect

    from fastparse import _parse
    assert fp.parse is fp._core.parse
    assert list(inspect.signature(fp.parse).parameters) == [
        "source", "encoding", "max_size", "max_depth", "recovery", "scripting"]
    data = b"<p class=a>caf\xc3\xa9</p>"
    want = [(t.name, t.span, t.text) for t in _parse._parse_general(data)]
    for doc in (fp.parse(data), fp.parse(source=data), fp.parse(bytearray(data)), fp.parse(memoryview(data)),
                fp.parse(data, encoding="utf-8"), fp.parse(data, max_size=100), fp.parse(data, scripting=True)):
        assert [(t.name, t.span, t.text) for t in doc] == want and doc.encoding == "utf-8"
    assert fp.parse(data.decode())[0].text == "caf\xe9"
    assert fp.parse(b'<meta charset="iso-2022-jp"><p>\x1b$B$"\x1b(B').encoding == "iso-2022-jp"
    with pytest.raises(TypeError, match=r"parse\(\) missing"):
        fp.parse()
    with pytest.raises(TypeError, match=r"parse\(\) takes 1 positional"):
        fp.parse(data, "utf-8")
    with pytest.raises(TypeError, match="unexpected keyword"):
        fp.parse(data, encodng="utf-8")
    with pytest.raises(TypeError, match="not int"):
        fp.parse(1)
    with pytest.raises(fp.ParseLimitError):
        fp.parse(data, max_size=4)


def test_document_and_tag_copy_as_themselves_and_iterate():
    import collections.abc
    import copy

    d = fp.parse("<ul><li>a<li>b</ul>")
    li = d.find("li")
    assert copy.copy(d) is d and copy.deepcopy(d) is d   # immutable: a copy is the object itself
    assert copy.copy(li) is li and copy.deepcopy({"x": [li]})["x"][0] is li
    assert isinstance(d, collections.abc.Iterable)
    assert [t.name for t in iter(d)] == ["ul", "li", "li"]


def test_a_lone_surrogate_in_a_query_matches_nothing():
    # no parsed text holds one (a str's parse reads them as U+FFFD): a miss, not a UnicodeEncodeError
    s = "\ud800"
    for d in (fp.parse("<p id=a class=b x=1>t</p><i>u</i>"), fp.parse("<p id=a class=b x=1>\xe9</p>".encode("cp1252"))):
        p = d.find("p")
        assert d.find(s) is d.find(id=s) is d.find(cls=s) is fp.MISSING
        assert d.find(attrs={s: True}) is d.find(attrs={"x": s}) is p.next_sibling(s) is fp.MISSING
        assert d.find(["p", s]) == p and p.get(s) is None and p.get(s, 0) == 0 and s not in p
        with pytest.raises(KeyError):
            p[s]
        assert p.get_text(skip=(s,)) == p.text
        assert fp.MISSING.get(s) is None
    with pytest.raises(ValueError, match="separator holds a lone surrogate"):
        fp.parse("<p>a</p><p>b</p>").get_text(s)
    with pytest.raises(ValueError, match="lone surrogate"):
        fp.parse_fragment("x", context="d" + s)


def test_attrs_takes_any_mapping():
    import types

    d = fp.parse("<a href=x data-k=1>a</a><a data-k=2>b</a>")
    assert [t.text for t in d.find_all(attrs=types.MappingProxyType({"data-k": "2"}))] == ["b"]
    for bad in (["href"], "href", 3):
        with pytest.raises(TypeError, match="attrs must be a dict"):
            d.find(attrs=bad)


def test_integer_arguments_take_any_integer_type():
    class Index:   # numpy's integers are such types: int() of them is exact
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    d = fp.parse("<p><p><b><i>", max_size=Index(100), max_depth=Index(10))
    assert len(d.find_all(limit=Index(2))) == 2 and d[Index(0)].name == "p"
    with pytest.raises(fp.ParseLimitError):
        fp.parse("<b><i><u>", max_depth=Index(2))
    for bad in (2.0, True, "2"):
        with pytest.raises(TypeError):
            d.find_all(limit=bad)
        with pytest.raises(TypeError):
            fp.parse("x", max_size=bad)
    with pytest.raises(ValueError):
        d.find_all(limit=Index(-1))


def test_repr_stays_short_for_long_ids_and_names():
    d = fp.parse('<p id="' + "x" * 100_000 + '">a</p><' + "q" * 100 + ">b")
    assert all(len(repr(t)) < 140 for t in d)
    assert repr(d[0]).startswith("<Tag p#" + "x" * 59 + "\u2026 #0 at 0")


def test_missing_methods_show_the_tag_methods_signatures(doc):
    import inspect

    tag = doc.find("p")
    for name in ("find", "find_all", "select", "select_one", "closest", "matches", "next_sibling",
                 "prev_sibling", "get", "get_text"):
        assert inspect.signature(getattr(fp.MISSING, name)) == inspect.signature(getattr(tag, name)), name
