"""doc.errors: the tree builder's parse errors and the tokenizer's, with the HTML Standard's
codes. The tokenizer's that the parse does not look for (attributes, character references,
comments, the doctype's states, NULs, control characters and noncharacters) are found when
doc.errors is read (fastparse/_core/errors_scan.c); these tests check both kinds, against
html5lib-tests' tokenizer suite and one code at a time."""
from __future__ import annotations

from collections import Counter

import pytest

import fastparse as fp
from fastparse import conformance as C

# the tree builder's codes: a tokenizer test expects none of them
TREE_CODES = {"unexpected-end-tag", "unexpected-start-tag", "end-tag-too-early",
              "expected-closing-tag-but-got-eof", "expected-one-end-tag-but-got-another",
              "non-void-html-element-start-tag-with-trailing-solidus"}


def codes(src, **kw) -> list[str]:
    return [e.code for e in fp.parse(src, **kw).errors]


def tokenizer_cases() -> list[C.TokenizerTest]:
    if not C.TOKENIZER_DIR.is_dir():
        return []
    return [t for t in C.read_tokenizer_tests() if t.file != "xmlViolation.test"]


CASES = tokenizer_cases()
needs_suite = pytest.mark.skipif(not CASES, reason=f"html5lib-tests is absent ({C.TOKENIZER_DIR})")


def suite_source(t: C.TokenizerTest) -> str | None:
    """The document a test's input becomes (in its initial state's element), or None."""
    if t.state == "Data state":
        return t.input
    try:
        return C.tokenizer_document(t)[0]
    except C.Skip:
        return None


@needs_suite
def test_tokenizer_suite_error_codes():
    """Every test of the suite, but those whose input holds a lone surrogate: a str's lone
    surrogates become U+FFFD before the parse (no UTF-8 holds them), so the
    surrogate-in-input-stream error they make cannot be seen; and those with "<?", whose
    error the suite names as before the HTML Standard parsed processing instructions
    (2026-06: unexpected-question-mark-instead-of-tag-name is gone; test_api has the new ones)."""
    compared, differ = 0, []
    for t in CASES:
        src = suite_source(t)
        if src is None or any(0xD800 <= ord(c) <= 0xDFFF for c in src) or "<?" in t.input:
            continue
        compared += 1
        expected = Counter(e["code"] for e in t.errors)
        got = Counter(c for c in codes(src) if c not in TREE_CODES)
        if got != expected:
            differ.append(f"{t.id}: {src!r} expected {sorted(expected.elements())}, got {sorted(got.elements())}")
    assert compared > 6900, compared
    assert not differ, f"{len(differ)} of {compared} differ:\n" + "\n".join(differ[:20])


@pytest.mark.parametrize("src, code, offset", [
    # attributes
    ('<p id=a ID="b">', "duplicate-attribute", 8),
    ('<a href="x"class=y>', "missing-whitespace-between-attributes", 11),
    ('<div <p>', "unexpected-character-in-attribute-name", 5),
    ('<a b"c=1>', "unexpected-character-in-attribute-name", 4),
    ("<a b=c'd>", "unexpected-character-in-unquoted-attribute-value", 6),
    ("<a b=c`>", "unexpected-character-in-unquoted-attribute-value", 6),
    ("<a =b>", "unexpected-equals-sign-before-attribute-name", 3),
    ("<a b=>", "missing-attribute-value", 5),
    ("<br/ x>", "unexpected-solidus-in-tag", 3),
    ("<p a=1 b=2 A=3>", "duplicate-attribute", 11),
    # character references: in text, in attribute values, in RCDATA
    ("a &amp b", "missing-semicolon-after-character-reference", 2),
    ("&nosuchname;", "unknown-named-character-reference", 0),
    ("&#;", "absence-of-digits-in-numeric-character-reference", 0),
    ("&#x;", "absence-of-digits-in-numeric-character-reference", 0),
    ("&#65", "missing-semicolon-after-character-reference", 0),
    ("&#0;", "null-character-reference", 0),
    ("&#x110000;", "character-reference-outside-unicode-range", 0),
    ("&#xD800;", "surrogate-character-reference", 0),
    ("&#xFDD0;", "noncharacter-character-reference", 0),
    ("&#x1FFFF;", "noncharacter-character-reference", 0),
    ("&#13;", "control-character-reference", 0),
    ("&#x80;", "control-character-reference", 0),
    ('<a title="&amp x">', "missing-semicolon-after-character-reference", 10),
    ("<title>&#0;</title>", "null-character-reference", 7),
    ("<textarea>&amp</textarea>", "missing-semicolon-after-character-reference", 10),
    # the input stream
    ("a\x00b", "unexpected-null-character", 1),
    ("<p\x00>", "unexpected-null-character", 2),
    ("<script>\x00</script>", "unexpected-null-character", 8),
    ("a\x01b", "control-character-in-input-stream", 1),
    ("a\x7fb", "control-character-in-input-stream", 1),
    ("a\x85b", "control-character-in-input-stream", 1),
    ("a\ufdd0b", "noncharacter-in-input-stream", 1),
    ("a\U0010FFFFb", "noncharacter-in-input-stream", 1),
    # comments
    ("<!-- a <!-- b -->", "nested-comment", 7),
    ("<!-- a --!>", "incorrectly-closed-comment", 7),
    ("<![CDATA[x]]>", "cdata-in-html-content", 0),
    # the doctype
    ("<!DOCTYPEhtml>", "missing-whitespace-before-doctype-name", 9),
    ("<!DOCTYPE>", "missing-doctype-name", 9),
    ("<!DOCTYPE html x>", "invalid-character-sequence-after-doctype-name", 15),
    ('<!DOCTYPE html PUBLIC"x">', "missing-whitespace-after-doctype-public-keyword", 21),
    ('<!DOCTYPE html SYSTEM"x">', "missing-whitespace-after-doctype-system-keyword", 21),
    ("<!DOCTYPE html PUBLIC>", "missing-doctype-public-identifier", 21),
    ("<!DOCTYPE html SYSTEM >", "missing-doctype-system-identifier", 22),
    ("<!DOCTYPE html PUBLIC x>", "missing-quote-before-doctype-public-identifier", 22),
    ('<!DOCTYPE html PUBLIC "a" x>', "missing-quote-before-doctype-system-identifier", 26),
    ('<!DOCTYPE html PUBLIC "a>', "abrupt-doctype-public-identifier", 24),
    ('<!DOCTYPE html SYSTEM "a>', "abrupt-doctype-system-identifier", 24),
    ('<!DOCTYPE html PUBLIC "a""b">', "missing-whitespace-between-doctype-public-and-system-identifiers", 25),
    ('<!DOCTYPE html SYSTEM "a" x>', "unexpected-character-after-doctype-system-identifier", 26),
    ('<!DOCTYPE html PUBLIC "a', "eof-in-doctype", 24),
])
def test_each_tokenizer_error_alone(src, code, offset):
    # the one error of its input: found where it is, and nothing else found
    found = [(e.code, e.offset) for e in fp.parse(src).errors if e.code not in TREE_CODES]
    assert found == [(code, offset)]


@pytest.mark.parametrize("src", [
    ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>a &amp; b</title></head>'
     '<body><a href="/x?a=1&amp;b=2" class=y data-x=\'z\'>&copy; &#169; &#xA9;</a><br/><img src=x alt="">'
     "<!-- a - b -- c --></body></html>"),
    '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"><p>x</p>',
    "<!doctype html><p>x",
    '<a href="?a=1&not=2">x</a>',        # in a value, "&not=" and "&notx" stay as written
    '<a href="?x&notx">x</a>',
    "<script>if (a && b < c) x = '&amp'; </script>",   # no references in script data
    "<style>a::after { content: '&#0;' }</style>",
    "<svg><![CDATA[\x00 &amp]]></svg>",   # a CDATA section: no NUL error, no references
    "a\tb\nc\r\nd\x0ce",
])
def test_well_formed_markup_has_no_errors(src):
    assert codes(src) == []


def test_the_end_of_input_in_a_bogus_doctype_is_no_error():
    # "<!DOCTYPE a !" went to the bogus DOCTYPE state, where EOF emits the doctype
    assert codes("<!DOCTYPE a !") == ["invalid-character-sequence-after-doctype-name"]
    assert codes("<!DOCTYPE a") == ["eof-in-doctype"]


def test_a_reference_in_an_attribute_followed_by_equals_or_alphanumeric_is_no_error():
    assert codes('<a href="&amp=1&ampx&amp;&amp"></a>') == ["missing-semicolon-after-character-reference"]


def test_errors_are_in_source_order_with_the_tree_builders():
    src = "<p\x00 a=1 a=2></span>&#0;<!--x--!>"
    errors = fp.parse(src).errors
    assert [e.code for e in errors] == ["unexpected-null-character", "duplicate-attribute", "unexpected-end-tag",
                                        "null-character-reference", "incorrectly-closed-comment",
                                        "expected-closing-tag-but-got-eof"]   # <p\ufffd> is no <p>
    assert [e.offset for e in errors] == sorted(e.offset for e in errors)


def test_error_offsets_index_str_and_bytes_alike():
    src = "é<p a=1 a=2>&#0;"
    by_str = [(e.code, src[e.offset:e.offset + 3]) for e in fp.parse(src).errors]
    data = src.encode()
    by_bytes = [(e.code, data[e.offset:e.offset + 3].decode()) for e in fp.parse(data).errors]
    assert by_str == by_bytes == [("duplicate-attribute", "a=2"), ("null-character-reference", "&#0")]


def test_fragment_contexts_take_their_tokenizer_state():
    assert [e.code for e in fp.parse_fragment("&#0;\x00", context="textarea").errors] == [
        "null-character-reference", "unexpected-null-character"]
    assert [e.code for e in fp.parse_fragment("&#0;", context="script").errors] == []
    assert [e.code for e in fp.parse_fragment("<![CDATA[\x00]]>", context="svg").errors] == []
    assert [e.code for e in fp.parse_fragment("<![CDATA[\x00]]>", context="div").errors] == [
        "cdata-in-html-content", "unexpected-null-character"]


def test_many_attributes_in_one_tag():
    names = " ".join(f"a{i}" for i in range(100_000))
    assert codes(f"<div {names}></div>") == []
    assert codes(f"<div {names} a5 a99999></div>") == ["duplicate-attribute"] * 2
    # a tag with many names, then many tags with a few more than a handful
    small = "<br " + " ".join(f"b{i}" for i in range(20)) + " b3>"
    assert codes(f"<div {names}>" + small * 1000 + "</div>") == ["duplicate-attribute"] * 1000


def test_a_legacy_documents_high_bytes_are_not_read_as_utf8():
    # windows-1252 (the lone 0x85 is no UTF-8): 0xC2 0x85 is "Â…", not U+0085
    doc = fp.parse(b"<meta charset=windows-1252><p>\x85 \xc2\x85</p>")
    assert doc.encoding == "windows-1252" and doc.errors == []
    assert codes(b"<meta charset=utf-8><p>\xc2\x85</p>") == ["control-character-in-input-stream"]


def test_each_read_is_a_list_of_its_own():
    # the scan runs once (the document keeps its result); every read builds a new list
    doc = fp.parse("<p a=1 a=2>")
    first = doc.errors
    first.append("changed")
    assert doc.errors == [fp.ParseError("duplicate-attribute", 7, 1, 8)]
    assert doc.errors is not doc.errors


def test_content_after_the_body_ends():
    # "after body" (after </body>) and "after after body" (after </html>): a token other than
    # whitespace, a comment or <html> is an error, and the tree builder goes back to "in body"
    # (codes as html5lib names them; checked against html5lib 1.1)
    d = "<!DOCTYPE html><body></body>"
    assert codes(d + "<p>x") == ["unexpected-start-tag-after-body"]
    assert codes(d + "x") == ["unexpected-char-after-body"]
    assert codes(d + "</body>") == ["unexpected-end-tag-after-body"]
    assert codes(d + "</html><p>x") == ["expected-eof-but-got-start-tag"]
    assert codes(d + "</html>x") == ["expected-eof-but-got-char"]
    assert codes(d + "</html></p>") == ["expected-eof-but-got-end-tag", "unexpected-end-tag"]
    assert codes(d + "</html></html>") == codes(d + "</html></body>") == ["expected-eof-but-got-end-tag"]
    assert codes("<!DOCTYPE html><p>x</body></p>") == ["unexpected-end-tag-after-body"]
    assert codes(d + "</foo>") == ["unexpected-end-tag-after-body", "unexpected-end-tag"]
    # whitespace and comments are no error, nor a second <html>'s own
    assert codes(d + "\n<!-- c --> \n</html>\n<!-- d -->\n") == []
    assert codes(d + "<html lang=x>") == ["unexpected-start-tag"]
    # one error, then "in body": what follows is no error of its own
    assert [(e.code, e.offset) for e in fp.parse(d + "<div>x</div>").errors] == [
        ("unexpected-start-tag-after-body", 28)]


def test_elements_left_open_when_the_body_ends():
    # "in body", end of input or </body>: any element open but p, li, dd, dt, table cells and
    # rows, options, ruby parts, body and html is an error (named as html5lib names them)
    assert codes("<p>x<ul><li>y") == ["expected-closing-tag-but-got-eof"]
    assert [(e.code, e.offset) for e in fp.parse("<div>x").errors] == [("expected-closing-tag-but-got-eof", 6)]
    assert codes("<p>a<li>b<dd>c<option>d") == [] and codes("<table><tr><td>c</table><p>") == []
    assert codes("<table><tr><td>c") == ["expected-closing-tag-but-got-eof"]   # the table is open
    assert codes("<svg><path>") == ["expected-closing-tag-but-got-eof"]
    assert codes("<template>") == ["expected-closing-tag-but-got-eof"]
    assert [(e.code, e.offset) for e in fp.parse("<div></body></html>").errors] == [
        ("expected-one-end-tag-but-got-another", 5)]   # at </body>, and once
    assert codes("<div></div></body>x<b>") == ["unexpected-char-after-body",   # the body again
                                                "expected-closing-tag-but-got-eof"]
    assert codes("<html><body><p>a</p></body></html>") == []
    # "in head" pops the head before the body's check: a page that ends in its head is fine
    for src in ("<!DOCTYPE html><html><head><title>x</title>", "<head><meta charset=utf-8></html>",
                "<style></style><head><title>x</title>"):
        assert codes(src) == [], src
    assert codes("<head><noscript>") == ["expected-closing-tag-but-got-eof"]   # "in head noscript"
    # an implied html's </html> ends the body too; a template-context fragment stops "in template"
    assert [(e.code, e.offset) for e in fp.parse("<!DOCTYPE html><div>x</html>").errors] == [
        ("expected-one-end-tag-but-got-another", 21)]
    assert fp.parse_fragment("<div>x", "template").errors == [] and fp.parse_fragment("<head>", "html").errors == []
    assert [e.code for e in fp.parse_fragment("<template><div>x", "template").errors] == [
        "expected-closing-tag-but-got-eof"]
    # </html> with no body in scope (a cell, a template) is ignored, and the end still checks
    assert codes("<html><body><table><tr><td>x</html>") == ["unexpected-end-tag",
                                                            "expected-closing-tag-but-got-eof"]
    assert codes("<body><div>x</html>") == ["expected-one-end-tag-but-got-another"]   # once
    assert codes("<body>x</html>") == [] and codes("<frameset></frameset></html>") == []
    assert codes("<html><frameset><frame></html>") == ["unexpected-end-tag", "expected-closing-tag-but-got-eof"]


def test_elements_left_open_at_each_of_many_body_ends():
    # a long walk down the stack leaves its answer on the elements it passed
    # (simulator_open_at_end.c); a later </body> over them gives the same errors
    def codes(src):
        return [e.code for e in fp.parse(src).errors if e.code != "unexpected-char-after-body"]

    rt = "<rt>" * 40
    end = "expected-one-end-tag-but-got-another"
    start_after, end_after = "unexpected-start-tag-after-body", "unexpected-end-tag-after-body"
    assert codes(rt + "x</body>" * 3) == []
    assert codes("<div>" + rt + "x</body>" * 3) == [end] * 3
    assert codes("<div>" + rt + "x</body>" + "<rt>x</body>" * 2 + "</rt>" * 2 + "x</body>") == [
        end, start_after, end, start_after, end, end_after, end]
    # the element found leaves the stack (</form> removes it), and what is below it decides
    assert codes("<form>" + rt + "x</body></form>x</body>") == [end, end_after]
    assert codes("<div><form>" + rt + "x</body></form>x</body>") == [end, end_after, end]
    # the adoption agency moves a block of them out of <b>: their depths change
    assert codes("<b><div>" + rt + "x</body></b>x</body>") == [end, end_after, end]


def test_an_html_context_fragment_ends_its_body_as_a_document_does():
    # the fragment implies head and body like a document; only "after body" differs: a
    # fragment ignores </html> there, with an error (13.2.6.4.19)
    def frag(src):
        return [(e.code, e.offset) for e in fp.parse_fragment(src, "html").errors]

    assert frag("<p>x</body>") == [] and frag("x</body>") == [] and frag("<head></head>") == []
    assert frag("<p>x</body></html>") == [("unexpected-end-tag", 11)]
    assert frag("<p>x</html>") == [("unexpected-end-tag", 4)]
    assert frag("<b>x</body>") == [("expected-one-end-tag-but-got-another", 4)]
    assert [(e.code, e.offset) for e in fp.parse_fragment("<p>x</body>", "body").errors] == [
        ("unexpected-end-tag", 4)]   # a body context puts no body on the stack


def test_an_end_tag_that_closes_more_than_its_element():
    # "if the current node is not ... then this is a parse error" once the implied end
    # tags are generated (html5lib's end-tag-too-early): p, li, dd, options and ruby parts
    # close silently; formatting elements go through the adoption agency, whose errors
    # are not reported
    assert [(e.code, e.offset) for e in fp.parse("<div><span>x</div>").errors] == [("end-tag-too-early", 12)]
    assert codes("<div><p>x</div>") == []
    assert codes("<h2>x</h1>") == ["end-tag-too-early"]   # another level's end tag
    assert codes("<ul><li><span>x</li></ul>") == ["end-tag-too-early"]
    assert codes("<form><div></form></div>") == ["end-tag-too-early"]
    assert codes("<template><tr><td>x</template>") == []   # table parts end thoroughly there
    assert codes("<template><div>x</template>") == ["end-tag-too-early"]
    assert codes("<table><tr><td><div>x</td></tr></table>") == ["end-tag-too-early"]
    assert codes("<table><tr><td>x</table>") == [] and codes("<select><option>x</select>") == []
    assert codes("<b><i>x</b></i>") == ["unexpected-end-tag"]   # </b>: the adoption agency's
