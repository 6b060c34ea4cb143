"""tag.closed_by, every kind, and the nesting the tree-builder simulator
decides (compared with what the HTML Standard's tree builder builds)."""
from __future__ import annotations

import pytest

import fastparse as fp


def outline(src: str, **kw) -> list[tuple[str, int, str]]:
    return [(t.name, t.depth, t.closed_by) for t in fp.parse(src, **kw)]


# ---- one case per kind ----

def test_end_tag():
    assert outline("<div><span>x</span></div>") == [("div", 0, "end-tag"), ("span", 1, "end-tag")]


def test_implied_by_a_sibling():
    assert outline("<ul><li>a<li>b</ul>") == [
        ("ul", 0, "end-tag"), ("li", 1, "implied"), ("li", 1, "parent-end")]
    assert outline("<p>a<div>b</div>") == [("p", 0, "implied"), ("div", 0, "end-tag")]


def test_parent_end():
    assert outline("<div><p>x</div>") == [("div", 0, "end-tag"), ("p", 1, "parent-end")]


def test_void():
    assert outline("<br><img src=x><input><hr/><wbr>") == [
        ("br", 0, "void"), ("img", 0, "void"), ("input", 0, "void"), ("hr", 0, "void"),
        ("wbr", 0, "void")]


def test_self_closing_in_foreign_content():
    assert outline("<svg><circle/><rect></rect><g/></svg>") == [
        ("svg", 0, "end-tag"), ("circle", 1, "self-closing"), ("rect", 1, "end-tag"),
        ("g", 1, "self-closing")]
    assert outline("<math><mi/><mo>+</mo></math>") == [
        ("math", 0, "end-tag"), ("mi", 1, "self-closing"), ("mo", 1, "end-tag")]
    assert outline("<svg/><p>") == [("svg", 0, "self-closing"), ("p", 0, "eof")]


def test_self_closing_syntax_on_html_elements_is_ignored():
    assert outline("<div/><p>x</p></div>") == [("div", 0, "end-tag"), ("p", 1, "end-tag")]


def test_eof():
    assert outline("<div><span>x") == [("div", 0, "eof"), ("span", 1, "eof")]


def test_every_kind_is_one_of_the_documented_names():
    kinds = {"end-tag", "implied", "parent-end", "void", "self-closing", "eof"}
    src = "<ul><li>a<li>b</ul><br><svg><c/></svg><div><p>x</div><i>"
    assert {k for _, _, k in outline(src)} == kinds


# ---- spans follow the closing ----

def test_spans_of_each_kind():
    d = fp.parse("<ul><li>a<li>b</ul><br><svg><c/></svg><i>z")
    got = {t.name + str(t.index): (t.span, t.inner_span) for t in d}
    assert got == {
        "ul0": ((0, 19), (4, 14)),
        "li1": ((4, 9), (8, 9)),       # implied: ends where <li> begins
        "li2": ((9, 14), (13, 14)),    # parent-end: ends at </ul>
        "br3": ((19, 23), (23, 23)),
        "svg4": ((23, 38), (28, 32)),
        "c5": ((28, 32), (32, 32)),
        "i6": ((38, 42), (41, 42)),    # eof
    }


# ---- the end tag of the current node (parse.c's fast path) and the long way ----

def test_end_tags_of_the_current_node_in_any_case():
    d = fp.parse("<DIV><Span>x</sPaN></div><my-el><x-y>a</X-Y></MY-EL>")
    assert [(t.name, t.closed_by, t.span) for t in d] == [
        ("div", "end-tag", (0, 25)), ("span", "end-tag", (5, 19)),
        ("my-el", "end-tag", (25, 52)), ("x-y", "end-tag", (32, 44))]
    assert d.errors == []


def test_end_tags_with_more_than_a_name_take_the_tokenizer():
    d = fp.parse("<div></div ><p></p x=1><b></b/>")
    assert [(t.name, t.closed_by, t.span) for t in d] == [
        ("div", "end-tag", (0, 12)), ("p", "end-tag", (12, 23)), ("b", "end-tag", (23, 31))]
    assert [e.code for e in d.errors] == ["end-tag-with-attributes", "end-tag-with-trailing-solidus"]


# The parse loop closes the current node on its own end tag without the tokenizer
# (parse.c, current_end_tag): spelled in any case, with near misses that must not close.
PLAIN_END_TAG_NAMES = ["a", "b", "h1", "em", "div", "span", "aside", "strong", "article", "fieldset",
                       "blockquote"]


def _closes(name: bytes, spelled: bytes) -> bool:
    # the end tag's name runs to whitespace, '/' or '>' and is lowered in ASCII only
    return spelled.translate(bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                             b"abcdefghijklmnopqrstuvwxyz")) == name


@pytest.mark.parametrize("name", PLAIN_END_TAG_NAMES)
def test_end_tag_spellings_of_the_current_node(name):
    import random
    r = random.Random(name)
    name = name.encode()
    last = name[-1]
    # a byte off by 0x80 (non-ASCII with the same low bits), off by 0x20 (the other case of
    # a letter, a control byte for a digit), a neighbour of the letters' range, a NUL
    near = [name + b"x", name[:-1], b"x" + name, name.upper(), name[:-1] + b"\x00"]
    near += [name[:-1] + bytes([last ^ bit]) for bit in (0x80, 0xA0, 0x20)]
    near += [name[:-1] + bytes([c]) for c in b"@[`{"]
    spellings = near + [bytes(c - 32 if r.random() < 0.5 else c for c in name) for _ in range(8)]
    for spelled in spellings:
        for tail in (b"", b"t", b"0123456789"):
            src = b"<" + name + b">x</" + spelled + b">" + tail
            d = fp.parse(src, encoding="windows-1252")
            el = d[0]
            if _closes(name, spelled):
                assert (el.closed_by, el.span) == ("end-tag", (0, len(src) - len(tail))), src
            else:
                assert el.closed_by == "eof", src


def test_current_node_end_tags_that_do_more_than_close():
    # </form> clears the form pointer: a second form is not a nested, ignored one
    assert outline("<form><input></form><form><b></form>") == [
        ("form", 0, "end-tag"), ("input", 1, "void"), ("form", 0, "end-tag"), ("b", 1, "eof")]
    # </body> and </html> close nothing until the end of input
    assert outline("<body><p>x</p></body><i>y") == [("body", 0, "eof"), ("p", 1, "end-tag"), ("i", 1, "eof")]
    # svg elements' end tags: of the current node, and of one with only svg elements above it
    assert outline("<svg><title>t</title><a></a></svg>") == [
        ("svg", 0, "end-tag"), ("title", 1, "end-tag"), ("a", 1, "end-tag")]
    assert outline("<svg><g><rect></g></svg>") == [
        ("svg", 0, "end-tag"), ("g", 1, "end-tag"), ("rect", 2, "parent-end")]


def test_void_elements_keep_their_place_and_solidus():
    d = fp.parse("<p>a<br/><img src=x>b<input></p>")
    assert [(t.name, t.depth, t.parent.name, t.closed_by) for t in d][1:] == [
        ("br", 1, "p", "void"), ("img", 1, "p", "void"), ("input", 1, "p", "void")]
    assert d.errors == []   # a solidus on a void element is no error


# ---- implied end tags of the HTML Standard ----

@pytest.mark.parametrize("src, expected", [
    ("<dl><dt>a<dd>b<dt>c</dl>", [
        ("dl", 0, "end-tag"), ("dt", 1, "implied"), ("dd", 1, "implied"), ("dt", 1, "parent-end")]),
    ("<select><option>a<option>b</select>", [
        ("select", 0, "end-tag"), ("option", 1, "implied"), ("option", 1, "parent-end")]),
    ("<select><optgroup><option>a<optgroup><option>b</select>", [
        ("select", 0, "end-tag"), ("optgroup", 1, "implied"), ("option", 2, "implied"),
        ("optgroup", 1, "parent-end"), ("option", 2, "parent-end")]),
    ("<table><tr><td>a<td>b<tr><td>c</table>", [
        ("table", 0, "end-tag"), ("tr", 1, "implied"), ("td", 2, "implied"),
        ("td", 2, "parent-end"), ("tr", 1, "parent-end"), ("td", 2, "parent-end")]),
    ("<table><thead><tr><th>h<tbody><tr><td>d</table>", [
        ("table", 0, "end-tag"), ("thead", 1, "implied"), ("tr", 2, "parent-end"),
        ("th", 3, "parent-end"), ("tbody", 1, "parent-end"), ("tr", 2, "parent-end"),
        ("td", 3, "parent-end")]),
    ("<ruby>a<rt>b<rp>c</ruby>", [
        ("ruby", 0, "end-tag"), ("rt", 1, "implied"), ("rp", 1, "parent-end")]),
    ("<h1>a<h2>b</h2>", [("h1", 0, "implied"), ("h2", 0, "end-tag")]),
    ("<h1>a</h2>b", [("h1", 0, "end-tag")]),
    ("<p>a<ul><li>x</ul>", [("p", 0, "implied"), ("ul", 0, "end-tag"), ("li", 1, "parent-end")]),
    ("<p>a</p>b</p>", [("p", 0, "end-tag"), ("p", 0, "end-tag")]),   # the stray </p>: an empty <p>
    ("<p>a<span>b</p>", [("p", 0, "end-tag"), ("span", 1, "parent-end")]),
    ("<ul><li>a<ul><li>b</ul></ul>", [
        ("ul", 0, "end-tag"), ("li", 1, "parent-end"), ("ul", 2, "end-tag"), ("li", 3, "parent-end")]),
    ("<html><head><title>x</title><body><p>y</body></html>", [
        ("html", 0, "end-tag"), ("head", 1, "implied"), ("title", 2, "end-tag"),
        ("body", 1, "end-tag"), ("p", 2, "parent-end")]),
    ("<head><meta charset=utf-8>text<p>", [
        ("head", 0, "implied"), ("meta", 1, "void"), ("p", 0, "eof")]),
    ("<form><form></form></form>", [("form", 0, "end-tag")]),
    ("<a href=1>x<a href=2>y</a>", [("a", 0, "implied"), ("a", 0, "end-tag")]),
    ("<div><p>a</span>b</div>", [("div", 0, "end-tag"), ("p", 1, "parent-end")]),
    ("<button><button>", [("button", 0, "implied"), ("button", 0, "eof")]),
])
def test_html5_implied_ends(src, expected):
    assert outline(src) == expected


def test_stray_end_tags_close_nothing_and_are_errors():
    d = fp.parse("<div><span>x</li></table></span></div>")
    assert [(t.name, t.closed_by) for t in d] == [("div", "end-tag"), ("span", "end-tag")]
    assert [e.code for e in d.errors] == ["unexpected-end-tag"] * 2


def test_stray_end_p_is_an_empty_p_element():
    # "in body", </p> with no <p> in button scope: an error, and the spec inserts an
    # empty <p> there and closes it; indexed as the element of that end tag
    d = fp.parse("<div><span>x</p>y</span></div>")
    assert [(t.name, t.closed_by, t.parent.name) for t in d][1:] == [("span", "end-tag", "div"),
                                                                     ("p", "end-tag", "span")]
    p = d.find("p")
    assert p.span == (12, 16) and p.html == "</p>" and p.text == "" and p.attrs == {}
    assert d.find("span").text == "xy" and [e.code for e in d.errors] == ["unexpected-end-tag"]


def test_end_tag_does_not_cross_a_scope_boundary():
    # </div> inside a td (a table scope boundary) must not close the outer div
    d = fp.parse("<div><table><tr><td>x</div>y</td></tr></table>z</div>")
    assert d.find("div").closed_by == "end-tag"
    assert d.find("td").closed_by == "end-tag"
    assert d.find("div").text == "xyz"


def test_foreign_content_breakout():
    d = fp.parse("<p>x<svg><g><p>y</svg>")
    assert [(t.name, t.depth, t.namespace, t.closed_by) for t in d] == [
        ("p", 0, "html", "implied"), ("svg", 1, "svg", "implied"), ("g", 2, "svg", "implied"),
        ("p", 0, "html", "eof")]


def test_html_integration_point_keeps_html_inside_svg():
    d = fp.parse("<svg><foreignObject><div>x</div></foreignObject></svg>")
    assert [(t.name, t.depth, t.namespace) for t in d] == [
        ("svg", 0, "svg"), ("foreignObject", 1, "svg"), ("div", 2, "html")]


def test_table_closes_p_only_outside_quirks_mode():
    # without a doctype the document is in quirks mode, where <table> does
    # not close an open <p> (13.2.6.4.7, "in body", start tag "table")
    assert outline("<!DOCTYPE html><p>a<table></table>") == [
        ("p", 0, "implied"), ("table", 0, "end-tag")]
    assert outline("<p>a<table></table></p>") == [("p", 0, "end-tag"), ("table", 1, "end-tag")]


def test_formatting_end_tag_with_a_block_inside_follows_the_adoption_agency():
    # <b><p>x</b>y</p>: the spec builds <b></b><p><b>x</b>y</p>, so the p is
    # not inside the first b and the b ends at its end tag with no content
    d = fp.parse("<b><p>x</b>y</p>")
    p = d.find("p")
    assert p.parent is fp.MISSING
    assert p.text == "xy"


# ---- recovery="none" ----

def test_recovery_none_kinds():
    assert outline("<p>a<div>b</div></p><li>x<li>y<br><svg/><x/>", recovery="none") == [
        ("p", 0, "end-tag"), ("div", 1, "end-tag"), ("li", 0, "eof"), ("li", 1, "eof"),
        ("br", 2, "void"), ("svg", 2, "self-closing"), ("x", 2, "self-closing")]


def test_recovery_none_end_tag_closes_the_nearest_open_element_of_its_name():
    assert outline("<div><span><div>x</span>y</div></div>", recovery="none") == [
        ("div", 0, "end-tag"), ("span", 1, "end-tag"), ("div", 2, "parent-end")]


def test_closed_by_of_every_element_in_a_big_page_is_known():
    src = "<table>" + "<tr><td>a<td><p>b<li>c" * 300 + "</table><svg><c/></svg><br>"
    kinds = {t.closed_by for t in fp.parse(src)}
    assert kinds <= {"end-tag", "implied", "parent-end", "void", "self-closing", "eof"}


# ---- nesting rules of the HTML Standard (lexbor builds the same parents) ----

def parents(src: str) -> dict[str, str | None]:
    """id -> id of the parent element, for the elements that carry an id."""
    return {t.id: t.parent.id if t.parent else None for t in fp.parse(src) if t.id}


@pytest.mark.parametrize("src, expected", [
    # <li>/<dd> close an open li/dd through a div (address, div, p are skipped)
    ("<li id=a><div id=b><li id=c>", {"a": None, "b": "a", "c": None}),
    ("<dl id=l><dd id=a><div id=b><dt id=c>", {"l": None, "a": "l", "b": "a", "c": "l"}),
    # a heading closes an open heading only when it is the current node
    ("<h1 id=a><div id=b><h2 id=c>", {"a": None, "b": "a", "c": "b"}),
    ("<button id=a><div id=b><button id=c>", {"a": None, "b": "a", "c": None}),
    # <font> leaves svg only with a color, face or size attribute
    ("<svg id=s><font id=f color=red>x", {"s": None, "f": None}),
    ("<svg id=s><font id=f>x", {"s": None, "f": "s"}),
    ("<math id=m><annotation-xml id=x encoding='text/html'><div id=d>y</div></annotation-xml>",
     {"m": None, "x": "m", "d": "x"}),
    # "</br>" and "</p>" leave foreign content
    ("<div id=a><math id=m><input id=b></br><input id=c>",
     {"a": None, "m": "a", "b": "m", "c": "a"}),
])
def test_nesting_like_the_html_standard(src, expected):
    assert parents(src) == expected


def test_form_end_tag_removes_only_the_form():
    # 13.2.6.4.7 "in body", end tag "form": the form element is removed from
    # the stack; elements opened inside it stay open
    assert parents("<form id=a><div id=b></form><p id=c>") == {"a": None, "b": "a", "c": "b"}


def test_foster_parenting_moves_content_out_of_the_table():
    # 13.2.6.4.9 "in table", anything else: a <div> directly in a <table> is
    # inserted before the table, as a sibling
    assert parents("<table id=t><div id=x>y</div><tr id=r><td id=d>z</table>") == {
        "t": None, "x": None, "r": "t", "d": "r"}


def test_noscript_in_an_implied_head_ends_at_body_content():
    # no <head> tag: the head is implied, and "in head noscript" pops the
    # noscript (and the head) at a <div> or <img>
    assert parents("<noscript id=n><div id=d>x</div></noscript><p id=p>") == {
        "n": None, "d": None, "p": None}
    assert parents("<head><noscript id=n><div id=d>x</div></noscript></head><p id=p>") == {
        "n": None, "d": None, "p": None}


@pytest.mark.parametrize("name", ["foreignObject", "desc", "mi", "mtext", "annotation-xml"])
def test_html_element_named_like_a_foreign_special_element_is_not_special(name):
    # outside svg/math these are ordinary HTML elements: their end tag is
    # ignored when a special element (the div) is open above them
    assert parents(f"<{name} id=a><div id=b></{name}><i id=c>") == {"a": None, "b": "a", "c": "b"}


def test_image_in_html_becomes_img():
    d = fp.parse("<p><image src=x>y")
    assert [(t.name, t.depth, t.closed_by) for t in d] == [("p", 0, "eof"), ("img", 1, "void")]


@pytest.mark.parametrize("ns", ["svg", "math"])
def test_image_in_foreign_content_stays_a_foreign_element(ns):
    # "<image>" is renamed to "img" only by the "in body" rules; in svg it is
    # SVG's own <image> element and does not break out of the svg
    d = fp.parse(f'<{ns}><image href="x.png"/><g></g></{ns}>')
    assert [(t.name, t.namespace, t.depth, t.closed_by) for t in d] == [
        (ns, ns, 0, "end-tag"), ("image", ns, 1, "self-closing"), ("g", ns, 1, "end-tag")]


def test_text_in_a_head_noscript_ends_it_and_the_head():
    # "in head noscript", anything else (here the text "x"): pop the noscript,
    # then the head; the second <noscript> is an ordinary element of the body
    assert parents("<noscript id=a>x<noscript id=b><i id=c>") == {"a": None, "b": None, "c": "b"}


def test_noscript_after_the_head_is_in_the_body():
    assert parents("<head></head><noscript id=a><img id=b>") == {"a": None, "b": "a"}


def test_optgroup_outside_select_nests():
    # "in body", start tag optgroup: only an open <option> is closed
    assert parents("<optgroup id=a><optgroup id=b>") == {"a": None, "b": "a"}


def test_option_end_tag_outside_select_closes_through_phrasing_elements():
    # "in body", any other end tag: </option> closes the open option and the
    # (non-special) elements opened inside it
    d = fp.parse("<option>a<span>b</option>c")
    assert [(t.name, t.closed_by) for t in d] == [("option", "end-tag"), ("span", "parent-end")]
    assert d.find("option").text == "ab"


@pytest.mark.parametrize("name", ["dialog", "search", "details", "main", "address", "figcaption"])
def test_block_end_tag_closes_the_elements_opened_inside_it(name):
    # "in body", end tag address, article, ..., dialog, ..., search, ...:
    # generate implied end tags and pop until the element
    src = f"<{name} id=a><div id=d></{name}><i id=c>"
    assert parents(src) == {"a": None, "d": "a", "c": None}
    assert fp.parse(src).find("div").closed_by == "parent-end"
