"""Conformance harness: fastparse and its peers against the HTML Standard's test suites.

Why it exists: issue 2 (tokenizer suite) and issue 3 (tree construction, malformed
snippets) ask for figures that are comparable across parsers, so every parser is reduced
to one *neutral tree* (element names, parent links, text) and scored the same way. The
test modules, the report script and the notebooks all import this module.

Tree construction (``html5lib-tests/tree-construction/*.dat``), per case:

* The expected ``#document`` dump is read into a neutral tree. Element names are
  lower-case local names without the namespace designator (``svg foreignObject`` ->
  ``foreignobject``). Template ``content`` is transparent: its children count as children
  of the ``<template>``, as they sit in the source and in fastparse's flat index.
* **Splice**: every element whose name has no start tag anywhere in ``#data`` is removed
  and its children lifted to its parent. "Has a start tag" is ``<name`` followed by a tag
  name terminator (whitespace, ``/``, ``>``) or the end, case-insensitive, anywhere in the
  data (comments and attribute values included: a conservative, simple rule). A bare
  substring check would keep an implied ``<head>`` whenever ``<header`` occurs.
  The same splice is applied to every parser's tree.
* **exact**: the pre-order list of (depth, name) after splicing is identical. For
  fastparse the order is document (source) order, so foster-parented elements count as
  a miss here; parent agreement is the metric that forgives order.
* **parent**: for the k-th element of each name in the expected tree, the parser's k-th
  element of that name exists and has a nearest kept ancestor of the same name (or both
  are top level). The fraction of expected elements that agree; 1.0 when the expected
  tree keeps no element; mean over cases. Extra elements do not lower it (exact catches
  them); scoring over the union of both trees instead lowers the non-spec parsers by
  about 3 points (lxml 87%, bs4 html.parser 85%) and moves them away from the issue's
  reference figures, which this definition reproduces within 2 points.
* **text**: the concatenated text nodes (comments, doctype, attributes excluded; template
  contents included), ASCII whitespace collapsed to one space and stripped, are equal.
  fastparse's side is ``doc.text``.
* Scripting: a case marked ``#script-on`` runs with the scripting flag on for parsers
  that have one (fastparse: ``parse(data, scripting=True)``); a parser without the flag
  skips those cases (listed as skipped with the reason). Unmarked cases run once, with
  scripting off (the spec says both modes; the 2 x run would only duplicate them).
* Fragment cases (``#document-fragment``) go through each parser's fragment API with the
  context element (namespace included where the API takes one). lxml and BeautifulSoup
  have no fragment parser: they parse the data as a document, and the splice removes the
  html/head/body they add. A fastparse context it rejects is a skipped case, not a miss.
* ``tree-construction/scripted/`` is not run: its cases need a script engine
  (document.write).

Measured on the 1792 cases (html5lib-tests 9329e64; selectolax 1.0.2, html5lib 1.1,
lxml 6.1.3, bs4 4.15.0, markupever 0.4.0, turbohtml 1.15.4), against the issue's reference:

    parser            cases  exact%  parent%  text%    issue says
    selectolax         1792   100.0   100.00  100.0    100 / 100
    turbohtml          1792   100.0   100.00  100.0    -
    markupever         1765    99.9    99.97   99.8    99 / 99.7   (27 script-off skipped)
    html5lib           1729    91.4    96.19   99.3    91 / 96     (63 svg/math contexts skipped)
    lxml               1784    72.8    90.35   94.6    71 / 89
    bs4 (lxml)         1784    72.5    90.55   95.3    74 / 92
    bs4 (html.parser)  1784    67.5    89.16   82.2    69 / 90

The remaining gaps (within 2 points) are consistent with other library versions or with
running the peers on script-on cases; the choices above were checked one by one: a
substring "has a start tag" test moves no figure by more than 0.2 points, the union
denominator for parent agreement lowers the non-spec parsers by about 3 points.
Known peer deviations the figures include: html5lib 1.1 predates the 2025 select and
template changes; markupever (html5ever) has no scripting-off mode and does not clone
<option> content into <selectedcontent>; turbohtml reads "<?x>" as a processing
instruction (the spec: a bogus comment), which only the tokenizer view sees.

Tokenizer (``html5lib-tests/tokenizer/*.test``): see :func:`tokenizer_check`.
"""

from __future__ import annotations

import functools
import json
import re
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# ---------------------------------------------------------------------------
# Where the suites live (relative to the repository root, never copied in)
# ---------------------------------------------------------------------------

REPO_ROOT = Path(__file__).resolve().parent.parent
CORPORA = REPO_ROOT.parent / "shared" / "corpora"
TREE_DIR = CORPORA / "html5lib-tests" / "tree-construction"
TOKENIZER_DIR = CORPORA / "html5lib-tests" / "tokenizer"
MALFORMED_CASES = CORPORA / "malformed" / "cases.json"

_ASCII_WS = re.compile(r"[ \t\n\f\r]+")


def collapse_ws(text: str) -> str:
    """ASCII whitespace runs to one space, stripped (NBSP is text, not whitespace)."""
    return _ASCII_WS.sub(" ", text).strip(" ")


# ---------------------------------------------------------------------------
# Reading .dat files
# ---------------------------------------------------------------------------

_HEADINGS = {"data", "errors", "new-errors", "document-fragment", "document",
             "script-on", "script-off"}


@dataclass
class TreeCase:
    file: str                      # "tests1.dat"
    number: int                    # 1-based position in the file
    data: str
    document: list[str]            # the "| ..." dump lines, continuation lines joined
    context: str | None = None     # "td", "svg path", ... for fragment cases
    scripting: bool | None = None  # True: #script-on, False: #script-off, None: either
    errors: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number}"


def read_dat(path: Path) -> list[TreeCase]:
    """All cases of one tree-construction .dat file, in order."""
    cases: list[TreeCase] = []
    sections: dict[str, list[str]] = {}
    current: str | None = None

    def flush() -> None:
        if not sections:
            return
        doc = sections.get("document", [])
        while doc and doc[-1] == "":      # the blank line that separates tests
            doc.pop()
        joined: list[str] = []
        for line in doc:                  # text nodes may span lines
            if line.startswith("|") or not joined:
                joined.append(line)
            else:
                joined[-1] += "\n" + line
        frag = sections.get("document-fragment")
        scripting = True if "script-on" in sections else False if "script-off" in sections else None
        cases.append(TreeCase(
            file=path.name, number=len(cases) + 1,
            data="\n".join(sections.get("data", [])),
            document=joined,
            context=frag[0] if frag else None,
            scripting=scripting,
            errors=sections.get("errors", []) + sections.get("new-errors", []),
        ))

    with open(path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith("#") and line[1:] in _HEADINGS:
            if line == "#data":
                flush()
                sections = {}
            current = line[1:]
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    flush()
    return cases


def read_tree_cases(directory: Path = TREE_DIR) -> list[TreeCase]:
    """Every case of every top-level .dat file (not scripted/), sorted by file name."""
    cases: list[TreeCase] = []
    for path in sorted(directory.glob("*.dat")):
        cases.extend(read_dat(path))
    return cases


# ---------------------------------------------------------------------------
# The neutral tree
# ---------------------------------------------------------------------------

@dataclass
class NeutralTree:
    """Elements in the parser's order with parent links, and the document's text."""
    names: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # index into names, -1: top level
    text: str = ""


def tree_from_events(events: Iterator[tuple]) -> NeutralTree:
    """Build a tree from ("start", name) / ("end",) / ("text", s) events."""
    tree = NeutralTree()
    stack: list[int] = []
    texts: list[str] = []
    for ev in events:
        kind = ev[0]
        if kind == "start":
            tree.parents.append(stack[-1] if stack else -1)
            stack.append(len(tree.names))
            tree.names.append(ev[1].lower())
        elif kind == "end":
            stack.pop()
        elif ev[1]:
            texts.append(ev[1])
    tree.text = "".join(texts)
    return tree


def _local(name: str) -> str:
    """'svg foreignObject' -> 'foreignobject'; '{ns}path' -> 'path'."""
    if name.startswith("{"):
        name = name[name.index("}") + 1:]
    return name.rsplit(" ", 1)[-1].lower()


_ATTR_LINE = re.compile(r'^(?:(?:xlink|xml|xmlns) )?[^\s"][^\s=]*="')


def expected_tree(case: TreeCase) -> NeutralTree:
    """The #document dump as a neutral tree (template 'content' is transparent)."""
    tree = NeutralTree()
    texts: list[str] = []
    # stack of (dump depth, element index or None for 'content' / non-elements)
    stack: list[tuple[int, int | None]] = []
    prev_element_depth = -2           # depth of the element whose attributes may follow
    for line in case.document:
        body = line[2:]
        depth = (len(body) - len(body.lstrip(" "))) // 2
        node = body[depth * 2:]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = next((i for _, i in reversed(stack) if i is not None), -1)
        if depth == prev_element_depth + 1 and _ATTR_LINE.match(node) and node.endswith('"'):
            continue                  # an attribute of the element just read
        prev_element_depth = -2
        if node.startswith(("<!-- ", "<!DOCTYPE", "<?")):
            continue
        if node.startswith('"') and node.endswith('"') and len(node) >= 2:
            texts.append(node[1:-1])
        elif node == "content":
            stack.append((depth, None))
        elif node.startswith("<") and node.endswith(">"):
            stack.append((depth, len(tree.names)))
            tree.parents.append(parent)
            tree.names.append(_local(node[1:-1]))
            prev_element_depth = depth
        else:
            raise ValueError(f"{case.id}: cannot read dump line {line!r}")
    tree.text = "".join(texts)
    return tree


# ---------------------------------------------------------------------------
# Splicing and scoring
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=65536)
def has_start_tag(data: str, name: str) -> bool:
    """True when '<name' followed by a tag-name terminator occurs in data (any case)."""
    return re.search(_start_tag_pattern(name), data, re.IGNORECASE) is not None


def _start_tag_pattern(name: str) -> str:
    # a NUL in a tag name becomes U+FFFD: either spelling is that start tag
    return "<" + re.escape(name).replace("\ufffd", "[\0\ufffd]") + r"(?=[\t\n\f\r />]|$)"


@dataclass
class Spliced:
    outline: list[tuple[int, str]]   # (depth, name) in the tree's order
    parent_of: dict[tuple[str, int], str | None]  # (name, k) -> nearest kept ancestor name


def splice(tree: NeutralTree, keep: Callable[[str], bool]) -> Spliced:
    """Drop elements whose name keep() rejects; children move up to the kept ancestor."""
    kept_parent: list[int] = []     # nearest kept ancestor index (or -1) of each element
    depth: list[int] = []           # depth among kept elements, for kept ones
    outline: list[tuple[int, str]] = []
    parent_of: dict[tuple[str, int], str | None] = {}
    seen: Counter = Counter()
    is_kept = [keep(n) for n in tree.names]
    for i, name in enumerate(tree.names):
        p = tree.parents[i]
        # parents always precede children in both document and tree order
        anc = p if p < 0 or is_kept[p] else kept_parent[p]
        kept_parent.append(anc)
        d = 0 if anc < 0 else depth[anc] + 1
        depth.append(d)
        if is_kept[i]:
            outline.append((d, name))
            parent_of[(name, seen[name])] = None if anc < 0 else tree.names[anc]
            seen[name] += 1
    return Spliced(outline, parent_of)


@dataclass
class CaseScore:
    exact: bool
    parent: float
    text: bool


def score(case: TreeCase, expected: NeutralTree, actual: NeutralTree) -> CaseScore:
    """The three issue-3 metrics for one case."""
    def keep(name: str) -> bool:
        return has_start_tag(case.data, name)
    exp, act = splice(expected, keep), splice(actual, keep)
    if exp.parent_of:
        agree = sum(1 for k, p in exp.parent_of.items()
                    if k in act.parent_of and act.parent_of[k] == p)
        parent = agree / len(exp.parent_of)
    else:
        parent = 1.0
    return CaseScore(exp.outline == act.outline, parent,
                     collapse_ws(expected.text) == collapse_ws(actual.text))


def spliced_outline(case: TreeCase, tree: NeutralTree) -> list[tuple[int, str]]:
    """The (depth, name) list after splicing, for failure reports."""
    return splice(tree, lambda n: has_start_tag(case.data, n)).outline


def format_outline(outline: list[tuple[int, str]]) -> str:
    """Compact nesting, children in parentheses: [(0,'ul'),(1,'li'),(0,'p')] -> 'ul(li),p'."""
    out: list[str] = []
    prev = -1
    for d, name in outline:
        if prev >= 0:
            if d > prev:
                out.append("(" * (d - prev))
            else:
                out.append(")" * (prev - d) + ",")
        out.append(name)
        prev = d
    out.append(")" * max(prev, 0))
    return "".join(out)


def outline_of(tree: NeutralTree, data: str | None = None) -> str:
    """format_outline of a tree, spliced against data's start tags when data is given."""
    if data is None:
        return format_outline(splice(tree, lambda n: True).outline)
    return format_outline(splice(tree, lambda n: has_start_tag(data, n)).outline)


# ---------------------------------------------------------------------------
# Adapters: one function per parser, case -> NeutralTree (or raise Skip)
# ---------------------------------------------------------------------------

class Skip(Exception):
    """This parser cannot run this case (reason in the message); not counted as a miss."""


def _split_context(context: str) -> tuple[str, str]:
    """'svg path' -> ('svg', 'path'); 'td' -> ('html', 'td')."""
    if " " in context:
        ns, local = context.split(" ", 1)
        return ns, local
    return "html", context


def fastparse_tree(case: TreeCase) -> NeutralTree:
    import fastparse as fp
    kwargs: dict[str, Any] = {"scripting": True} if case.scripting else {}
    try:
        if case.context is None:
            doc = fp.parse(case.data, **kwargs)
        else:
            doc = fp.parse_fragment(case.data, context=case.context, **kwargs)
    except TypeError as exc:
        if kwargs:
            raise Skip(f"fastparse has no scripting=True yet ({exc})") from None
        raise
    except (ValueError, LookupError) as exc:
        if case.context is not None:
            raise Skip(f"fastparse rejects context {case.context!r} ({exc})") from None
        raise
    return fastparse_neutral(doc)


def fastparse_neutral(doc) -> NeutralTree:
    """Neutral tree of a parsed fastparse Document, walked through doc.children and
    tag.children: tree order, which puts a foster-parented element before its table
    (document order keeps it at its source position)."""
    tree = NeutralTree()
    stack = [(tag, -1) for tag in reversed(doc.children)]
    while stack:
        tag, parent = stack.pop()
        tree.parents.append(parent)
        tree.names.append(tag.name.lower())   # neutral names: lower-case, as in the docstring
        here = len(tree.names) - 1
        stack.extend((child, here) for child in reversed(tag.children))
    tree.text = doc.text or ""
    return tree


def selectolax_tree(case: TreeCase) -> NeutralTree:
    from selectolax.lexbor import LexborHTMLParser
    kwargs: dict[str, Any] = {"scripting": bool(case.scripting)}
    if case.context is None:
        parser = LexborHTMLParser(case.data, **kwargs)
        top = [parser.root] if parser.root is not None else []
    else:
        ns, local = _split_context(case.context)
        parser = LexborHTMLParser(case.data, is_fragment=True, fragment_tag=local,
                                  fragment_namespace=ns, **kwargs)
        # a fragment's "root" is its first top-level node: walk it and its siblings
        top = []
        node = parser.root
        while node is not None:
            top.append(node)
            node = node.next

    def walk(node) -> Iterator[tuple]:
        tag = node.tag
        if tag == "-text":
            yield ("text", node.text_content)
        elif tag in ("_comment", "!doctype", "-comment", "-doctype") or tag is None:
            return
        else:
            yield ("start", _local(tag))
            child = node.child
            if tag == "template":
                frags = node.template_fragments()
                child = frags[0].child if frags else child
            # child/next links, not iter(): iter() on a fragment's first node walks the
            # whole fragment
            while child is not None:
                yield from walk(child)
                child = child.next
            yield ("end",)

    return tree_from_events(ev for n in top for ev in walk(n))


def _html5lib_events(node) -> Iterator[tuple]:
    tag = node.tag
    if isinstance(tag, str) and tag not in ("<!DOCTYPE>", "DOCUMENT_ROOT", "DOCUMENT_FRAGMENT"):
        yield ("start", _local(tag))
        yield ("text", node.text)
        for child in node:
            yield from _html5lib_events(child)
        yield ("end",)
    elif tag in ("DOCUMENT_ROOT", "DOCUMENT_FRAGMENT"):
        yield ("text", node.text)
        for child in node:
            yield from _html5lib_events(child)
    yield ("text", node.tail)


def html5lib_tree(case: TreeCase) -> NeutralTree:
    import html5lib
    parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"),
                                 namespaceHTMLElements=False)
    scripting = bool(case.scripting)
    if case.context is None:
        root = parser.parse(case.data, scripting=scripting)
    else:
        ns, local = _split_context(case.context)
        if ns != "html":
            raise Skip("html5lib takes only HTML fragment contexts")
        root = parser.parseFragment(case.data, container=local, scripting=scripting)
    return tree_from_events(_html5lib_events(root))


def _lxml_events(node) -> Iterator[tuple]:
    if isinstance(node.tag, str):
        yield ("start", _local(node.tag))
        yield ("text", node.text)
        for child in node:
            yield from _lxml_events(child)
        yield ("end",)
    yield ("text", node.tail)


def lxml_tree(case: TreeCase) -> NeutralTree:
    if case.scripting:
        raise Skip("lxml has no scripting flag")
    import lxml.html
    from lxml import etree
    data = case.data.encode("utf-8")
    if not data.strip():
        return NeutralTree()
    try:
        doc = lxml.html.document_fromstring(data, parser=lxml.html.HTMLParser(encoding="utf-8"))
    except etree.ParserError:
        return NeutralTree()             # "Document is empty": lxml builds nothing
    return tree_from_events(_lxml_events(doc))


def _bs4_tree(case: TreeCase, features: str) -> NeutralTree:
    if case.scripting:
        raise Skip("BeautifulSoup has no scripting flag")
    from bs4 import (BeautifulSoup, Comment, Declaration, Doctype,  # noqa: I001 - one line
                     ProcessingInstruction, Tag)
    skip = (Comment, Declaration, Doctype, ProcessingInstruction)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "looks like XML / a URL / a filename"
        soup = BeautifulSoup(case.data, features)

    def walk(node) -> Iterator[tuple]:
        for child in node.contents:
            if isinstance(child, Tag):
                yield ("start", _local(child.name))
                yield from walk(child)
                yield ("end",)
            elif not isinstance(child, skip):
                yield ("text", str(child))

    return tree_from_events(walk(soup))


def bs4_htmlparser_tree(case: TreeCase) -> NeutralTree:
    return _bs4_tree(case, "html.parser")


def bs4_lxml_tree(case: TreeCase) -> NeutralTree:
    return _bs4_tree(case, "lxml")


def markupever_tree(case: TreeCase) -> NeutralTree:
    if case.scripting is False:
        raise Skip("markupever has no scripting flag (html5ever parses with scripting on)")
    import markupever
    from markupever import dom
    if case.context is None:
        options = markupever.HtmlOptions()
    else:
        ns, local = _split_context(case.context)
        url = {"html": "http://www.w3.org/1999/xhtml", "svg": "http://www.w3.org/2000/svg",
               "math": "http://www.w3.org/1998/Math/MathML"}[ns]
        options = markupever.HtmlOptions(full_document=False,
                                         fragment_context=dom.QualName(local, url))
    tree = markupever.parse(case.data, options)

    def walk(node) -> Iterator[tuple]:
        for child in node.children():
            if isinstance(child, dom.Element):
                yield ("start", _local(child.name.local))
                yield from walk(child)
                yield ("end",)
            elif isinstance(child, dom.Text):
                yield ("text", child.content)

    root: dom.Document | dom.Element = tree.root()
    if case.context is not None:
        # html5ever's fragment result is a document holding one <html> wrapper
        kids = list(root.children())
        if len(kids) == 1 and isinstance(kids[0], dom.Element) and kids[0].name.local == "html":
            root = kids[0]
    return tree_from_events(walk(root))


def turbohtml_tree(case: TreeCase) -> NeutralTree:
    import turbohtml
    scripting = bool(case.scripting)
    root: turbohtml.Document | turbohtml.Element
    if case.context is None:
        root = turbohtml.parse(case.data, positions=False, scripting=scripting,
                               allow_declarative_shadow_roots=False)
    else:
        root = turbohtml.parse_fragment(case.data, context=case.context, positions=False,
                                        scripting=scripting)

    def walk(node) -> Iterator[tuple]:
        for child in node.children:
            kind = type(child).__name__
            if kind == "Element":
                yield ("start", _local(child.tag))
                yield from walk(child)
                yield ("end",)
            elif kind == "DocumentFragment":   # template contents
                yield from walk(child)
            elif kind in ("Text", "CData"):
                yield ("text", child.text)

    return tree_from_events(walk(root))


TREE_ADAPTERS: dict[str, Callable[[TreeCase], NeutralTree]] = {
    "fastparse": fastparse_tree,
    "selectolax": selectolax_tree,
    "html5lib": html5lib_tree,
    "lxml": lxml_tree,
    "bs4-html.parser": bs4_htmlparser_tree,
    "bs4-lxml": bs4_lxml_tree,
    "markupever": markupever_tree,
    "turbohtml": turbohtml_tree,
}

_ADAPTER_MODULES = {
    "fastparse": "fastparse._core", "selectolax": "selectolax.lexbor", "html5lib": "html5lib",
    "lxml": "lxml.html", "bs4-html.parser": "bs4", "bs4-lxml": "lxml.html",
    "markupever": "markupever", "turbohtml": "turbohtml",
}


def installed_tree_adapters() -> dict[str, Callable[[TreeCase], NeutralTree]]:
    """The adapters whose parser imports in this environment."""
    import importlib
    out = {}
    for name, fn in TREE_ADAPTERS.items():
        try:
            importlib.import_module(_ADAPTER_MODULES[name])
            if name == "bs4-lxml":
                importlib.import_module("bs4")
        except ImportError:
            continue
        out[name] = fn
    return out


# ---------------------------------------------------------------------------
# Running a suite
# ---------------------------------------------------------------------------

@dataclass
class CaseResult:
    case: TreeCase
    score: CaseScore | None          # None when skipped
    skipped: str | None = None       # reason
    error: str | None = None         # the parser raised: scored as a total miss


def run_tree_case(adapter: Callable[[TreeCase], NeutralTree], case: TreeCase) -> CaseResult:
    expected = expected_tree(case)
    try:
        actual = adapter(case)
    except Skip as exc:
        return CaseResult(case, None, skipped=str(exc))
    except Exception as exc:  # noqa: BLE001 - a crash is a miss, reported with its text
        return CaseResult(case, CaseScore(False, 0.0, False), error=f"{type(exc).__name__}: {exc}")
    return CaseResult(case, score(case, expected, actual))


def run_tree_suite(adapter: Callable[[TreeCase], NeutralTree],
                   cases: list[TreeCase]) -> list[CaseResult]:
    return [run_tree_case(adapter, c) for c in cases]


@dataclass
class Figures:
    cases: int        # scored cases
    skipped: int
    exact: float      # fraction
    parent: float
    text: float


def figures(results: list[CaseResult]) -> Figures:
    scored = [r.score for r in results if r.score is not None]
    n = len(scored)
    if not n:
        return Figures(0, len(results), 0.0, 0.0, 0.0)
    return Figures(n, len(results) - n,
                   sum(s.exact for s in scored) / n,
                   sum(s.parent for s in scored) / n,
                   sum(s.text for s in scored) / n)


def per_file(results: list[CaseResult]) -> dict[str, Figures]:
    groups: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        groups[r.case.file].append(r)
    return {f: figures(rs) for f, rs in sorted(groups.items())}


def format_table(results: list[CaseResult], title: str = "") -> str:
    """Per-.dat-file table plus the overall line, as fixed-width text."""
    rows = [f"{'file':<44} {'cases':>5} {'skip':>4} {'exact%':>7} {'parent%':>8} {'text%':>6}"]
    for name, f in per_file(results).items():
        rows.append(f"{name:<44} {f.cases:>5} {f.skipped:>4} {100 * f.exact:>7.1f} "
                    f"{100 * f.parent:>8.2f} {100 * f.text:>6.1f}")
    t = figures(results)
    rows.append(f"{'OVERALL':<44} {t.cases:>5} {t.skipped:>4} {100 * t.exact:>7.1f} "
                f"{100 * t.parent:>8.2f} {100 * t.text:>6.1f}")
    return (title + "\n" if title else "") + "\n".join(rows)


def expected_difference(case: TreeCase, expected: NeutralTree | None = None) -> str | None:
    """Why a parser that never clones or inserts cannot match this case, or None.

    A kept name with more elements in the expected tree than start tags in the data means
    the spec cloned it (adoption agency, reconstruction of active formatting elements);
    <selectedcontent> gets a clone of the selected <option>'s content (2025 select).
    expected: the reference tree, when it is not the case's own dump (another parser's).
    """
    if has_start_tag(case.data, "selectedcontent") and has_start_tag(case.data, "option"):
        return "spec clones the selected <option>'s content into <selectedcontent>"
    expected = expected or expected_tree(case)
    counts = Counter(n for n in expected.names if has_start_tag(case.data, n))
    for name, n in counts.items():
        in_source = len(re.findall(_start_tag_pattern(name), case.data, re.IGNORECASE))
        if n > in_source:
            return f"spec clones <{name}> ({n} elements, {in_source} start tags)"
    return None


# ---------------------------------------------------------------------------
# Tokenizer suite (issue 2)
# ---------------------------------------------------------------------------
#
# The tokenizer tests give the token stream of an input, before any tree builder. A flat
# index exposes what a tree shows instead, so each test is mapped to a document:
#
# * initialState "Data state": the input is the document.
# * "RCDATA" / "RAWTEXT" / "Script data" / "PLAINTEXT": the input is wrapped in a start tag
#   of that kind (lastStartTag when it names such an element, else textarea / xmp / script
#   / plaintext), which puts the tokenizer in that state, and the expected elements start
#   with the wrapper. When lastStartTag differs from the wrapper, the mapping is only sound
#   if the input contains neither "</lastStartTag" nor "</wrapper"; otherwise excluded.
# * "CDATA section state": the input follows "<svg><![CDATA[", when the expected tokens
#   are all characters (tags after the section would be in foreign content).
#
# Compared: start tags as elements in document order (name and attributes, first duplicate
# wins); character data as doc.text (NUL dropped as the tree builder does in body, or
# U+FFFD in foreign content; the newline right after <pre>/<listing>/<textarea> dropped;
# leading whitespace of the document not compared, on either side: the tree builder drops
# it before <html>); comments as doc.comments (their text) and the doctype name as
# doc.doctype (a peer's view may leave either NOT_EXPOSED: not compared).
# Excluded, each with its reason (tokenizer_exclusion): start tags the tree builder
# ignores, merges or renames by position, start tags that switch the tokenizer state when
# more input follows them (the test does not model the switch), foreign content, tables,
# select and nested forms when input follows, "</p>" and "</br>" (the tree makes elements
# of them), lone surrogates (no UTF-8 carries them), and xmlViolation.test (it expects the
# XML-infoset coercion, not HTML).

_IGNORED_IN_BODY = {"caption", "col", "colgroup", "frame", "tbody", "td", "tfoot", "th",
                    "thead", "tr"}
_POSITIONAL = {"html", "head", "body", "frameset"}
_SWITCHES_STATE = {"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                   "noframes", "plaintext", "noscript"}
_CONTEXT_CHANGING = {"svg", "math", "table", "select", "template"}
_NEWLINE_EATERS = {"pre", "listing", "textarea"}
_WRAPPERS = {
    "RCDATA state": ({"title", "textarea"}, "textarea"),
    "RAWTEXT state": ({"xmp", "style", "iframe", "noembed", "noframes"}, "xmp"),
    "Script data state": ({"script"}, "script"),
    "PLAINTEXT state": ({"plaintext"}, "plaintext"),
}

NOT_EXPOSED = object()   # the Document has no such attribute: that part is not checked


@dataclass
class TokenizerTest:
    file: str
    number: int            # 1-based position in the file
    description: str
    input: str
    output: list
    state: str
    last_start_tag: str | None
    errors: list

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number} [{self.state}] {self.description}"


def _unescape_double(s: str) -> str:
    return re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), s)


def _unescape_tokens(value):
    if isinstance(value, str):
        return _unescape_double(value)
    if isinstance(value, list):
        return [_unescape_tokens(v) for v in value]
    if isinstance(value, dict):
        return {_unescape_double(k): _unescape_tokens(v) for k, v in value.items()}
    return value


def read_tokenizer_tests(directory: Path = TOKENIZER_DIR) -> list[TokenizerTest]:
    """Every (test, initial state) pair of every .test file, xmlViolation.test included."""
    out: list[TokenizerTest] = []
    for path in sorted(directory.glob("*.test")):
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
        tests = raw.get("tests", raw.get("xmlViolationTests", []))
        for n, t in enumerate(tests, 1):
            text, output = t["input"], t["output"]
            if t.get("doubleEscaped"):
                text, output = _unescape_double(text), _unescape_tokens(output)
            for state in t.get("initialStates", ["Data state"]):
                out.append(TokenizerTest(path.name, n, t["description"], text, output, state,
                                         t.get("lastStartTag"), t.get("errors", [])))
    return out


@dataclass
class TokenView:
    """What a tree shows of a token stream: the part a flat index can expose."""
    elements: list[tuple[str, dict[str, str]]]
    text: str
    comments: list[str] | object = NOT_EXPOSED
    doctype: str | None | object = NOT_EXPOSED


def _contains_end_tag(text: str, name: str) -> bool:
    return ("</" + name) in text.lower()


def tokenizer_exclusion(test: TokenizerTest) -> str | None:
    """Why this test cannot be compared through a tree, or None when it can."""
    if test.file == "xmlViolation.test":
        return "expects the XML-infoset coercion of the DOM, not the HTML tree"
    if any(0xD800 <= ord(c) <= 0xDFFF for c in test.input):
        return "input holds a lone surrogate: no UTF-8 document carries it"
    if test.state in _WRAPPERS:
        allowed, default = _WRAPPERS[test.state]
        wrapper = test.last_start_tag if test.last_start_tag in allowed else default
        if test.last_start_tag != wrapper and test.state != "PLAINTEXT state":
            for name in filter(None, (test.last_start_tag, wrapper)):
                if _contains_end_tag(test.input, name):
                    return (f"lastStartTag {test.last_start_tag!r} cannot be a {test.state} "
                            f"element and the input holds '</{name}'")
    if test.state == "CDATA section state" and any(t[0] != "Character" for t in test.output):
        return "tokens after the CDATA section would be in SVG foreign content"
    tokens = test.output
    forms = 0
    for i, tok in enumerate(tokens):
        followed = i + 1 < len(tokens)
        if tok[0] == "EndTag" and tok[1] in ("p", "br"):
            return f"the tree builder makes an element of </{tok[1]}>"
        if tok[0] != "StartTag":
            continue
        name = tok[1]
        if name in _IGNORED_IN_BODY:
            return f"the tree builder ignores <{name}> outside a table"
        if name in _POSITIONAL:
            return f"the tree builder keeps, merges or ignores <{name}> by position"
        if name == "form":
            forms += 1
            if forms > 1:
                return "the tree builder ignores a <form> inside a <form>"
        if followed and name in _SWITCHES_STATE:
            return f"<{name}> switches the tokenizer state for the input after it"
        if followed and name in _CONTEXT_CHANGING:
            return f"<{name}> changes how the following tokens are built into the tree"
    return None


def tokenizer_document(test: TokenizerTest) -> tuple[str, TokenView]:
    """The document to parse and the view a conforming tree shows of it.

    Raises Skip (with the reason) for an excluded test."""
    reason = tokenizer_exclusion(test)
    if reason:
        raise Skip(reason)
    tokens = list(test.output)
    source = test.input
    if test.state in _WRAPPERS:
        allowed, default = _WRAPPERS[test.state]
        wrapper = test.last_start_tag if test.last_start_tag in allowed else default
        source = f"<{wrapper}>" + source
        tokens.insert(0, ["StartTag", wrapper, {}])
    elif test.state == "CDATA section state":
        source = "<svg><![CDATA[" + source
        tokens.insert(0, ["StartTag", "svg", {}])

    elements: list[tuple[str, dict[str, str]]] = []
    texts: list[str] = []
    comments: list[str] = []
    doctype: str | None = None
    started = False          # a start tag or non-whitespace character was seen
    eat_newline = False
    for tok in tokens:
        kind = tok[0]
        if kind == "StartTag":
            name = "img" if tok[1] == "image" else tok[1]
            elements.append((name, dict(tok[2])))
            started = True
            eat_newline = name in _NEWLINE_EATERS
            continue
        if kind == "Character":
            data = tok[1]
            if eat_newline and data.startswith("\n"):
                data = data[1:]
            data = data.replace("\0", "\ufffd" if test.state == "CDATA section state" else "")
            if not started and data.strip(" \t\n\f\r"):
                started = True
            texts.append(data)
        elif kind == "Comment":
            comments.append(tok[1])
        elif kind == "DOCTYPE" and not started and doctype is None and not elements:
            doctype = tok[1] if tok[1] is not None else ""
            started = True   # a later DOCTYPE is a parse error and ignored
        eat_newline = False
    text = "".join(texts)
    if test.state == "Data state":
        text = text.lstrip(" \t\n\f\r")
    return source, TokenView(elements, text, comments, doctype)


def fastparse_token_view(source: str) -> TokenView:
    import fastparse as fp
    doc = fp.parse(source)
    return TokenView([(t.name, dict(t.attrs)) for t in doc], doc.text or "",
                     [c.text for c in doc.comments], doc.doctype)


def turbohtml_token_view(source: str) -> TokenView:
    """A spec parser's tree seen the same way (validates the mapping, not turbohtml).

    Implied html/head/body are dropped (excluded tests are the only ones with those start
    tags); attribute names are lower-cased (SVG/MathML adjust their case)."""
    import turbohtml
    doc = turbohtml.parse(source, positions=False, allow_declarative_shadow_roots=False)
    elements, texts, comments = [], [], []
    doctype: str | None = None

    def walk(node) -> None:
        nonlocal doctype
        for child in node.children:
            kind = type(child).__name__
            if kind == "Element":
                if child.tag.lower() not in ("html", "head", "body"):
                    attrs = {k.lower().replace("xlink ", "xlink:").replace("xml ", "xml:"): v
                             for k, v in dict(child.attrs).items()}
                    elements.append((child.tag.lower(), attrs))
                walk(child)
            elif kind == "DocumentFragment":
                walk(child)
            elif kind in ("Text", "CData"):
                texts.append(child.text)
            elif kind == "Comment":
                comments.append(child.data if hasattr(child, "data") else child.text)
            elif kind == "Doctype":
                doctype = child.name or ""

    walk(doc)
    return TokenView(elements, "".join(texts), comments, doctype)


TOKEN_VIEWS: dict[str, Callable[[str], TokenView]] = {
    "fastparse": fastparse_token_view,
    "turbohtml": turbohtml_token_view,
}


def tokenizer_check(test: TokenizerTest, view: Callable[[str], TokenView]) -> list[str]:
    """Differences between what the parser shows and what the test expects ([] = pass).

    Raises Skip for an excluded test. Parts the parser does not expose are not checked."""
    source, expected = tokenizer_document(test)
    actual = view(source)
    problems = []
    if actual.elements != expected.elements:
        problems.append(f"elements {actual.elements!r} != {expected.elements!r}")
    text = actual.text.lstrip(" \t\n\f\r") if test.state == "Data state" else actual.text
    if text != expected.text:
        problems.append(f"text {text!r} != {expected.text!r}")
    if actual.comments is not NOT_EXPOSED and actual.comments != expected.comments:
        problems.append(f"comments {actual.comments!r} != {expected.comments!r}")
    if actual.doctype is not NOT_EXPOSED and actual.doctype != expected.doctype:
        problems.append(f"doctype {actual.doctype!r} != {expected.doctype!r}")
    return problems


def explained_miss(case: TreeCase, actual: NeutralTree, expected: NeutralTree | None = None) -> str | None:
    """For a non-exact case: the reason a non-cloning, source-ordered index must differ.

    'clone' when the spec clones (expected_difference); 'reorder' when the parser has the
    same elements with the same parents, only in another order (foster parenting keeps
    fastparse's document order at the source position). None: a real miss."""
    expected = expected or expected_tree(case)
    reason = expected_difference(case, expected)
    if reason:
        return "clone: " + reason
    exp = splice(expected, lambda n: has_start_tag(case.data, n))
    act = splice(actual, lambda n: has_start_tag(case.data, n))
    if exp.parent_of == act.parent_of and exp.outline != act.outline:
        return "reorder: same parents, document order differs (foster parenting)"
    return None


def explained_text_miss(case: TreeCase, actual: NeutralTree, expected: NeutralTree | None = None) -> str | None:
    """For a text miss: 'clone' when the spec clones content (expected_difference), else
    None. (Text reads what foster parenting moved before its table, as the spec has it,
    since 2026-12-05: a text in another order is a miss.)"""
    expected = expected or expected_tree(case)
    reason = expected_difference(case, expected)
    return "clone: " + reason if reason else None
