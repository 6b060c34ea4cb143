"""Property tests (hypothesis) of the flat index on generated HTML-ish input (issue 7).

Properties, for every generated document:
- every span and inner span lies inside the source, and inside its parent's span;
- depth is the parent's depth + 1 (0 at top level), and the parent comes earlier;
- document order is start-offset order;
- parse(s) and parse(s.encode("utf-8")) give the same structure (spans mapped
  from characters to bytes);
- text is the concatenation of the text between tags, minus comments. This is
  checked exactly where "the text between tags" has no second reading: input
  built from ordinary elements (no raw text / RCDATA elements, no template),
  text without '<', '&' (references), CR (newline normalisation) or NUL, and
  well-formed comments. Then doc.text is the source with every tag and comment
  removed, and tag.text is the same of tag.inner_html;
- no exception for any str (without lone surrogates) or bytes, with any
  encoding label, and for every accessor;
- repeated parses of the same input give identical results.
"""
import os
import re
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import fastparse as fp
from fastparse.encoding import _LABELS

pytestmark = pytest.mark.filterwarnings("ignore")
# FP_PROPERTY_EXAMPLES=5000 for a long search; 300 keeps the suite quick
SETTINGS = settings(max_examples=int(os.environ.get("FP_PROPERTY_EXAMPLES", "300")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ---- generators -------------------------------------------------------------

PLAIN_NAMES = ["div", "p", "span", "a", "b", "i", "em", "ul", "ol", "li", "dl", "dt", "dd",
               "h1", "h2", "section", "nav",
               "form", "button", "select", "option", "optgroup", "ruby", "rt", "rp", "br",
               "img", "hr", "input", "svg", "g", "path", "foreignObject", "desc", "math", "mi",
               "mtext", "annotation-xml", "html", "head", "body", "x-widget", "Font", "DIV"]
# foster parenting moves text and elements out of a table, before it: text in source
# order no longer holds there (test_tables_move_text_but_lose_none)
TABLE_NAMES = ["table", "tbody", "tr", "td", "th", "caption"]
RAW_NAMES = ["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes",
             "plaintext", "template", "noscript"]
ATTR_NAMES = ["id", "class", "href", "data-x", "lang", "Title", "x"]
SAFE_TEXT = st.text(
    alphabet=st.characters(blacklist_characters="<&\r\x00", blacklist_categories=("Cs",)),
    max_size=12)
ATTR_VALUE = st.text(alphabet="abc xyz-_0é", max_size=6)


@st.composite
def start_tag(draw, names):
    name = draw(st.sampled_from(names))
    attrs = draw(st.lists(st.tuples(st.sampled_from(ATTR_NAMES), ATTR_VALUE), max_size=3))
    quote = draw(st.sampled_from(['"', "'"]))
    body = "".join(f" {k}={quote}{v}{quote}" for k, v in attrs)
    close = draw(st.sampled_from([">", "/>", " >"]))
    return f"<{name}{body}{close}"


def end_tag(names):
    return st.sampled_from(names).map(lambda n: f"</{n}>")


COMMENT = st.text(alphabet="abc xé", max_size=6).map(lambda c: f"<!--{c}-->")


def plain_html(names=PLAIN_NAMES):
    """Documents whose text is exactly what lies between their tags and comments
    (with TABLE_NAMES among the names: the same characters, some moved)."""
    part = st.one_of(start_tag(names), end_tag(names), SAFE_TEXT, COMMENT)
    return st.lists(part, max_size=30).map("".join)


def html_ish():
    """Anything goes: raw text elements, references, broken markup, odd characters."""
    names = PLAIN_NAMES + RAW_NAMES
    part = st.one_of(
        start_tag(names), end_tag(names), SAFE_TEXT, COMMENT,
        st.sampled_from(["<", "</", "<!", "<!--", "-->", "<!DOCTYPE html>", "<?x?>", "&amp;",
                         "&lt", "&#x41;", "&#0;", "&notit;", "<![CDATA[x]]>", "\r\n", "\x00",
                         "'", '"', "=", "/", ">", "<a b='", "<a b", "</p ", "\ufeff", "é"]),
        st.text(max_size=5))
    return st.lists(part, max_size=40).map("".join)


# ---- helpers ---------------------------------------------------------------

TAG_OR_COMMENT = re.compile(r"<!--.*?-->|</?[A-Za-z][^>]*>", re.DOTALL)
# what the "initial" and "before html" modes ignore: whitespace, comments, and end tags but
# </head>, </body>, </html> and </br> (which imply the html element and end those modes)
LEADING_IGNORED = re.compile(r"(?:[ \t\n\f\r]|<!--(?:(?!-->).)*-->|</(?!(?:head|body|html|br)[\s/>])[^>]*>)*",
                             re.DOTALL | re.IGNORECASE)
HTML_START = re.compile(r"<html(?=[\s/>])[^>]*>", re.IGNORECASE)


def ignoring_leading(s: str) -> str:
    """s after what "before head" ignores: that, and a second <html> start tag."""
    while True:
        s = s[LEADING_IGNORED.match(s).end():]
        html = HTML_START.match(s)
        if not html:
            return s
        s = s[html.end():]


def structure(doc, byte_offsets=None):
    """Everything the index says about each element, spans as given or mapped."""
    def at(x):
        return byte_offsets[x] if byte_offsets else x
    return [(t.name, t.parent.index if t.parent else None, t.depth, t.closed_by, t.namespace,
             t.attrs, (at(t.span[0]), at(t.span[1])), (at(t.inner_span[0]), at(t.inner_span[1])),
             t.text) for t in doc]


def char_to_byte(s: str) -> list[int]:
    offsets, n = [], 0
    for ch in s:
        offsets.append(n)
        n += len(ch.encode("utf-8"))
    offsets.append(n)
    return offsets


def check_index(doc) -> None:
    n = len(doc.source)
    prev = -1
    for i, tag in enumerate(doc):
        start, end = tag.span
        istart, iend = tag.inner_span
        assert 0 <= start < istart <= iend <= end <= n, tag
        assert start > prev, "document order must be start-offset order"
        prev = start
        parent = tag.parent
        if parent:
            assert parent.index < i
            assert tag.depth == parent.depth + 1
            assert parent.span[0] < start and end <= parent.span[1], (parent, tag)
            assert parent.inner_span[0] <= start
        else:
            assert tag.depth == 0
        descendants = tag.descendants
        if descendants:
            assert descendants[-1].span[1] <= end


# ---- properties ------------------------------------------------------------

@SETTINGS
@given(html_ish())
def test_spans_depth_and_order(s):
    check_index(fp.parse(s))
    check_index(fp.parse(s.encode("utf-8")))


@SETTINGS
@given(html_ish(), st.sampled_from(["div", "td", "tr", "svg", "math", "select", "title"]))
def test_fragment_index_is_consistent(s, context):
    check_index(fp.parse_fragment(s, context))


@SETTINGS
@given(html_ish())
def test_str_and_utf8_bytes_give_the_same_structure(s):
    # a leading U+FEFF is a byte order mark in bytes (not content), a character in str
    assume(not s.startswith("\ufeff"))
    from_str = fp.parse(s)
    from_bytes = fp.parse(s.encode("utf-8"), encoding="utf-8")
    assert from_bytes.encoding == "utf-8"
    assert structure(from_str, char_to_byte(s)) == structure(from_bytes)
    assert from_str.text == from_bytes.text
    assert [e.code for e in from_str.errors] == [e.code for e in from_bytes.errors]


def source_text(s: str) -> str:
    """The document's text as the source spells it: the tree builder ignores whitespace
    (and keeps comments out of the text) until the first character or element: "initial"
    and "before html" modes, then after an <html> start tag, "before head"."""
    rest = s[LEADING_IGNORED.match(s).end():]
    html = HTML_START.match(rest)
    if html:
        rest = rest[:html.end()] + ignoring_leading(rest[html.end():])
    return TAG_OR_COMMENT.sub("", rest)


def inner_text(tag, s: str) -> str:
    """An element's text as the source s spells it between its tags. "Before head" ignores
    whitespace after an <html> start tag that comes first; after one that an end tag
    implied the document before ("</html><html> "), the whitespace is the body's text."""
    starts = tag.name == "html" and tag.span[0] == LEADING_IGNORED.match(s).end()
    inner = ignoring_leading(tag.inner_html) if starts else tag.inner_html
    return TAG_OR_COMMENT.sub("", inner)


@SETTINGS
@given(plain_html())
@example("</html><html>\x0c")   # found by hypothesis: whitespace after an implied document's <html>
def test_text_is_the_source_minus_tags_and_comments(s):
    doc = fp.parse(s)
    assert doc.text == source_text(s)
    for tag in doc:
        assert tag.text == inner_text(tag, s), tag


@SETTINGS
@given(plain_html(PLAIN_NAMES + TABLE_NAMES))
def test_tables_move_text_but_lose_none(s):
    doc = fp.parse(s)
    assert sorted(doc.text) == sorted(source_text(s))
    for tag in doc:
        # a table's ancestor reads what the table moved before the table: the same
        # characters; a table, row group or row loses what it moved (some of them)
        expected = inner_text(tag, s)
        if tag.name in ("table", "tbody", "tr"):
            assert not Counter(tag.text) - Counter(expected), tag
        else:
            assert sorted(tag.text) == sorted(expected), tag


@SETTINGS
@given(plain_html(PLAIN_NAMES + TABLE_NAMES))
def test_children_siblings_and_parent_agree(s):
    # foster parenting puts elements out of index order: children and the sibling
    # steps follow links built for such documents, parent the index; all must agree
    doc = fp.parse(s)
    seen = []
    for node, kids in [(None, doc.children)] + [(tag, tag.children) for tag in doc]:
        seen += [k.index for k in kids]
        for k, kid in enumerate(kids):
            assert (kid.parent.index if node is not None else kid.parent) == (
                node.index if node is not None else fp.MISSING)
            assert kid.next_sibling() == (kids[k + 1] if k + 1 < len(kids) else fp.MISSING)
            assert kid.prev_sibling() == (kids[k - 1] if k else fp.MISSING)
    assert sorted(seen) == list(range(len(doc)))
    assert [[k.index for k in kids] for kids in [doc.children] + [t.children for t in doc]] == tree_order(doc)


def tree_order(doc) -> list[list[int]]:
    """Each node's children (the document's first) as the HTML Standard orders them,
    from the index alone: an element whose parent is not the innermost element holding
    it in the index was foster-parented, and goes right before the table it was moved
    out of (after those moved out of it before), or where it stands (a template's)."""
    last = [t.index + len(t.descendants) for t in doc]
    holder: list[int | None] = []   # the index parent
    for t in doc:
        inner = [x for x in range(t.index) if last[x] >= t.index]
        holder.append(inner[-1] if inner else None)
    parent = [t.parent.index if t.parent else None for t in doc]

    def key(j: int) -> tuple:
        if holder[j] == parent[j]:
            return (j, 1, j)
        a = j
        while holder[a] is not None and holder[a] != parent[j]:
            a = holder[a]
        if holder[a] == parent[j] and doc[a].name == "table" and parent[a] == parent[j]:
            return (a, 0, j)
        return (j, 0, j)

    return [sorted((j for j in range(len(doc)) if parent[j] == p), key=key) for p in [None, *range(len(doc))]]


@SETTINGS
@given(plain_html())
def test_html_is_the_source_slice(s):
    doc = fp.parse(s)
    for tag in doc:
        assert tag.html == s[tag.span[0]:tag.span[1]]
        assert tag.inner_html == s[tag.inner_span[0]:tag.inner_span[1]]


def touch_everything(doc) -> None:
    doc.text, doc.errors, doc.root, doc.encoding, repr(doc)
    doc.get_text(" ", True)
    for tag in doc:
        _ = (tag.name, tag.attrs, tag.id, tag.classes, tag.text, tag.html, tag.inner_html,
             tag.line, tag.col, tag.closed_by, tag.namespace, tag.children, tag.next, tag.prev)
        tag.get_text("|", True, None), tag.find_all("a"), tag.select("p > a, b")


@SETTINGS
@given(st.text(max_size=200))
def test_no_exception_for_any_str(s):
    touch_everything(fp.parse(s))


@SETTINGS
@given(st.binary(max_size=200), st.sampled_from([None, *sorted(_LABELS)]))
def test_no_exception_for_any_bytes_and_label(b, label):
    touch_everything(fp.parse(b, encoding=label))


@SETTINGS
@given(html_ish())
def test_repeated_parses_are_identical(s):
    first, second = fp.parse(s), fp.parse(s)
    assert structure(first) == structure(second)
    assert first.errors == second.errors
    assert first.text == second.text
    b = s.encode("utf-8")
    assert structure(fp.parse(b)) == structure(fp.parse(b))


# ---- the attribute Bloom filter never hides an attribute ---------------------

ODD_ATTR_NAME = st.text(alphabet="aAzZ-_:é\x00\u05d0x1", min_size=1, max_size=9)


@SETTINGS
@given(st.lists(st.tuples(ODD_ATTR_NAME, ATTR_VALUE), max_size=4),
       st.sampled_from(["utf-8", "windows-1252", "windows-1255", "shift_jis"]))
def test_every_listed_attribute_is_found_by_name(attrs, encoding):
    """fp_elem.attr_bits lets get(), `in` and [name] skip an element without reading its
    tag: any name tag.attrs lists (case, NUL as U+FFFD, non-ASCII, legacy bytes) is found."""
    body = "".join(f' {k}="{v}"' for k, v in attrs if "=" not in k)
    page = f"<div{body}><p{body.upper()}>x</p></div>"
    try:
        data = page.encode(encoding)
    except UnicodeEncodeError:
        assume(False)
    doc = fp.parse(data, encoding=encoding)
    for tag in doc:
        for name, value in tag.attrs.items():
            assert name in tag and tag.get(name) == value and tag[name] == value
            if name.isascii() and re.fullmatch(r"[a-z_][a-z0-9_-]*", name):
                assert tag in doc.select(f"[{name}]")
                assert tag in doc.find_all(attrs={name: True})
        assert tag.get("zz-absent") is None


NEAR_HREF = st.text(alphabet="hHrReEfFxa\x00", min_size=1, max_size=5)


@SETTINGS
@given(st.lists(NEAR_HREF, max_size=4))
def test_the_exact_href_bit_answers_like_the_attributes(names):
    """href owns its Bloom bit (names falling on it move to the next): [href], `in` and
    href=True answer from the bit alone, so every near-miss spelling must leave it clear."""
    doc = fp.parse("<p " + " ".join(f"{n}=v" for n in names) + ">x")
    p = doc.find("p")
    for name in ("href", *names):
        low = name.lower().replace("\x00", "\ufffd")
        present = low in p.attrs
        assert (low in p) == present
        if "\x00" not in name:
            assert (p in doc.select(f"[{low}]")) == present
        assert bool(doc.find_all(attrs={low: True})) == present
