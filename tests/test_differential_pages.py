"""Differential tests on the real pages of ../shared/corpora against selectolax
(lexbor, a full HTML5 tree builder): element counts per tag name, the title,
the a[href] values, every element's attributes and parent, and the text of the elements scrapers read
(p, li, td, headings...), whole and as stripped text nodes.

fastparse indexes only elements written in the source, while a spec tree
builder also creates some and reuses others, so these are left out of the
count comparison, each for its reason:

* html, head, body, tbody: the spec inserts them when the source omits them
  (every page in lexbor has exactly one of each html/head/body).
* tr and colgroup are compared as at most lexbor's count: the spec also
  inserts a <tr> around a cell written straight in a table or section, and a
  <colgroup> around such a <col> (generated documentation writes those).
* a b big code em font i nobr s small strike strong tt u: the formatting
  elements the adoption agency algorithm clones and reopens, so a spec tree
  holds more of them than the source has start tags.
* elements inside <template>: lexbor keeps template content in a separate
  fragment its traversal does not enter.
* names are compared as both report them: ASCII lower-case, but for the
  camel case the DOM gives SVG names (clipPath, linearGradient).

For a[href], lexbor's list may also hold clones of an <a> the adoption
agency reopened: each clone directly follows its original in document
order and carries the same href, so such repeats are allowed, nothing else.

The UTF-16 page is given to selectolax as the decoded str (lexbor parses
bytes as UTF-8 only); so is every page not in UTF-8, decoded with the
encoding fastparse detected (the encoding tests check that detection).
"""
from __future__ import annotations

import codecs
import csv
import re
from collections import Counter
from pathlib import Path

import pytest

import fastparse as fp

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
MANIFEST = CORPORA / "MANIFEST.tsv"

IMPLIED = {"html", "head", "body", "tbody"}
TABLE_PARTS_INSERTED_TOO = {"tr", "colgroup"}
CLONED_FORMATTING = {"a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike",
                     "strong", "tt", "u"}
EXCLUDED = IMPLIED | CLONED_FORMATTING
# a cell or col straight in a table (or section): the DOM's tr or colgroup around it is implied
IMPLIED_AROUND = {"td": "tr", "th": "tr", "col": "colgroup"}
IMPLIED_IN = {"table", "tbody", "thead", "tfoot", "template"}


def _pages() -> list[str]:
    if not MANIFEST.is_file():
        return []
    with MANIFEST.open(newline="", encoding="utf-8") as f:
        return [row["path"] for row in csv.DictReader(f, delimiter="\t")]


PAGES = _pages()
needs_corpora = pytest.mark.skipif(
    not PAGES, reason=f"no corpus: {MANIFEST} is absent (../shared/corpora is not checked out)")

lexbor = pytest.importorskip("selectolax.lexbor", reason="selectolax is not installed (dev extra)")


class Pair:
    """One page parsed by both parsers, cached: each test reads it several times."""

    def __init__(self, rel: str) -> None:
        data = (CORPORA / rel).read_bytes()
        self.doc = fp.parse(data)
        codec = codecs.lookup(fp.encoding.lookup(self.doc.encoding)[1]).name
        if self.doc.encoding == "utf-8" and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
            peer_input: str | bytes = data.removeprefix(b"\xef\xbb\xbf")   # lexbor reads a BOM as text
        else:
            peer_input = data.decode(codec, "replace").removeprefix("\ufeff")   # the decoder drops a BOM
        self.peer = lexbor.LexborHTMLParser(peer_input, options=lexbor.LexborDocumentOptions.WO_EVENTS)


_CACHE: dict[str, Pair] = {}


def pair(rel: str) -> Pair:
    if rel not in _CACHE:
        _CACHE.clear()  # one page at a time keeps memory flat
        _CACHE[rel] = Pair(rel)
    return _CACHE[rel]


def _outside_template(doc) -> list:
    tags, skip_until = [], -1
    for t in doc:
        if t.index <= skip_until:
            continue
        if t.name == "template":
            skip_until = t.index + len(t.descendants)
        tags.append(t)
    return tags


def _tree_order(doc) -> list:
    """The elements outside templates in the DOM's order (children lists): a fostered
    element before its table, as lexbor's traverse() meets it."""
    tags, stack = [], list(reversed(doc.children))
    while stack:
        t = stack.pop()
        tags.append(t)
        if t.name != "template":
            stack.extend(reversed(t.children))
    return tags


def counterparts(p: Pair, names=None):
    """(tag, lexbor node) pairs, the nth element of a name against lexbor's nth, for each
    name whose count agrees: those of `names`, else every name the spec never clones,
    implies or merges into (test_same_element_counts checks the counts)."""
    mine: dict[str, list] = {}
    for t in _tree_order(p.doc):
        mine.setdefault(t.name, []).append(t)
    theirs: dict[str, list] = {}
    for n in p.peer.root.traverse():   # as css(name) finds them: no template contents
        if n.is_element_node:
            theirs.setdefault(n.tag, []).append(n)
    for name in mine if names is None else names:
        tags, nodes = mine.get(name, []), theirs.get(name, [])
        if (names is None and name in EXCLUDED | TABLE_PARTS_INSERTED_TOO) or len(tags) != len(nodes):
            continue
        yield from zip(tags, nodes)


def fp_counts(doc) -> Counter:
    counts = Counter(t.name for t in _outside_template(doc) if t.name not in EXCLUDED)
    return +counts


def peer_counts(peer) -> Counter:
    names = (n.tag for n in peer.root.traverse() if n.is_element_node)
    return Counter(n for n in names if n not in EXCLUDED)


def collapse(s: str | None) -> str | None:
    return None if s is None else " ".join(s.split())


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_element_counts(rel):
    p = pair(rel)
    mine, theirs = fp_counts(p.doc), peer_counts(p.peer)
    diff = {n: (mine[n], theirs[n]) for n in mine.keys() | theirs.keys()
            if mine[n] != theirs[n] and not (n in TABLE_PARTS_INSERTED_TOO and mine[n] < theirs[n])}
    assert diff == {}, f"{rel}: name -> (fastparse, lexbor)"


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_title(rel):
    p = pair(rel)
    node = p.peer.css_first("title")
    expected = collapse(node.text()) if node is not None else None
    assert collapse(p.doc.find("title").text) == expected


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_link_hrefs(rel):
    p = pair(rel)
    mine = [a.get("href") for a in _outside_template(p.doc)
            if a.name == "a" and "href" in a]
    # lexbor's a[href] also matches an SVG <a xlink:href> (no attribute named href)
    theirs = [n.attributes["href"] or "" for n in p.peer.css("a[href]") if "href" in n.attributes]
    assert without_clones(theirs, mine) == mine


# elements whose text scrapers read; the formatting elements are left out (clones)
TEXT_TAGS = ("title", "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "dt", "dd", "td", "th", "caption", "table", "tr",
             "figcaption", "blockquote", "pre", "label", "button", "option", "textarea")


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_element_texts(rel):
    """Each element of TEXT_TAGS has lexbor's textContent, whitespace collapsed: the nth
    <p> against lexbor's nth, for each name whose count agrees (test_same_element_counts
    checks the counts)."""
    compared, bad = 0, []
    for t, node in counterparts(pair(rel), TEXT_TAGS):
        compared += 1
        # a <template>'s contents are in its text here (README), in a fragment of their own in a DOM
        text = collapse(t.get_text(skip=("template",)))
        if text != collapse(node.text(deep=True)):
            bad.append(f"<{t.name}> line {t.line}: {text[:60]!r} vs {collapse(node.text(deep=True))[:60]!r}")
    assert not bad, f"{rel}: {len(bad)} of {compared} differ:\n" + "\n".join(bad[:10])


def written_around(t, name: str) -> bool:
    """Whether an element `name` the source spells, inside t's parent, holds t in the index
    (its range), so that a DOM's parent of that name is no implied one."""
    before = [x for x in t.parent.find_all(name) if x.index < t.index]
    return bool(before) and t.index <= before[-1].index + len(before[-1].descendants)


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_parents(rel):
    """Each element's parent has the name of its lexbor counterpart's parent, past the
    implied html/head/body/tbody the index does not hold: the nth <div> against lexbor's
    nth, for each name whose count agrees, clones aside (a parent the adoption agency
    cloned may be the clone)."""
    compared, bad = 0, []
    p = pair(rel)
    for t, node in counterparts(p):
        mine_parent = t.parent.name if t.parent else None
        up = node.parent
        if (up is not None and up.tag == IMPLIED_AROUND.get(t.name) and mine_parent in IMPLIED_IN
                and not written_around(t, up.tag)):
            up = up.parent   # the tr or colgroup the spec implies (the index holds those spelled)
        while up is not None and up.tag in IMPLIED and up.tag != mine_parent:
            up = up.parent
        their_parent = up.tag if up is not None and up.is_element_node else None
        compared += 1
        if mine_parent != their_parent and their_parent not in CLONED_FORMATTING:
            bad.append(f"<{t.name}> line {t.line}: parent {mine_parent} vs {their_parent}")
    assert not bad, f"{rel}: {len(bad)} of {compared} differ:\n" + "\n".join(bad[:10])


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_text_nodes(rel):
    """get_text("|", strip=True) of each element of TEXT_TAGS joins lexbor's text nodes,
    each stripped as str.strip() does, the empty ones left out: the same nodes (a comment
    ends one, a tag the tree builder ignored does not) and the same stripping (U+3000 and
    U+00A0 are whitespace)."""
    compared, bad = 0, []
    for t, node in counterparts(pair(rel), TEXT_TAGS):
        compared += 1
        nodes = (n.text_content.strip() for n in node.traverse(include_text=True) if n.tag == "-text")
        want = "|".join(s for s in nodes if s)
        got = t.get_text("|", strip=True, skip=("template",))
        if got != want:
            bad.append(f"<{t.name}> line {t.line}: {got[:60]!r} vs {want[:60]!r}")
    assert not bad, f"{rel}: {len(bad)} of {compared} differ:\n" + "\n".join(bad[:10])


@needs_corpora
@pytest.mark.parametrize("rel", PAGES)
def test_same_attributes(rel):
    """Every element's attributes, names and decoded values in source order (the first of
    a repeated name), equal lexbor's: the nth <div> against lexbor's nth, for each name whose
    count agrees and that the spec never clones, implies or merges into (html, body)."""
    p = pair(rel)
    compared, bad = 0, []
    for t, node in counterparts(p):
        compared += 1
        want = [(k, "" if v is None else v) for k, v in node.attributes.items()]
        if list(t.attrs.items()) != want:
            bad.append(f"<{t.name}> line {t.line}: {list(t.attrs.items())!r:.120} vs {want!r:.120}")
    assert not bad, f"{rel}: {len(bad)} of {compared} differ:\n" + "\n".join(bad[:10])
    assert compared or len(p.doc) < 10


def without_clones(theirs: list[str], mine: list[str]) -> list[str]:
    """theirs without the repeats that only the adoption agency's clones explain."""
    kept, j = [], 0
    for k, href in enumerate(theirs):
        if j < len(mine) and href == mine[j]:
            kept.append(href)
            j += 1
        elif not (k and href == theirs[k - 1]):
            kept.append(href)  # not a clone: keep it so the comparison fails
    return kept


def test_manifest_lists_pages():
    if not PAGES:
        pytest.skip(f"no corpus: {MANIFEST} is absent")
    assert all((CORPORA / rel).is_file() for rel in PAGES)
    assert len(PAGES) >= 70


def test_without_clones_only_drops_adjacent_repeats():
    assert without_clones(["a", "a", "a", "b"], ["a", "b"]) == ["a", "b"]
    assert without_clones(["a", "c", "b"], ["a", "b"]) == ["a", "c", "b"]
    assert without_clones(["a", "b"], ["a", "b", "b"]) == ["a", "b"]


def test_whitespace_collapse_helper():
    assert collapse("  a \n\t b ") == "a b"
    assert collapse(None) is None
    assert re.fullmatch(r"\S+", collapse("x")) is not None
