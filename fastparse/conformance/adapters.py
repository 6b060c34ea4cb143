"""One function per parser: a tree-construction case to a NeutralTree (or Skip)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Any

from .suites import TreeCase
from .trees import NeutralTree, local_name, tree_from_events


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
            yield ("start", local_name(tag))
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
        yield ("start", local_name(tag))
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
        yield ("start", local_name(node.tag))
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
                yield ("start", local_name(child.name))
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
                yield ("start", local_name(child.name.local))
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
                yield ("start", local_name(child.tag))
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
