"""What every parser adapter provides, and the page logic written once on top.

An adapter is the smallest surface through which a library is driven:
`parse(bytes)` plus four query verbs (all, one, text, attr). The record
extractors, the links task and the selector task are written once here in
terms of those verbs, so each library is measured doing the same work through
its own native calls (CSS, XPath, find_all, etree iteration), and every output
is comparable. Scoped queries never name the scope's own tag, because some
libraries (selectolax, markupever) match the scope element itself."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any


@dataclass(frozen=True)
class Q:
    """A simple query: tag name, optionally one class token, an attribute that
    must be present, an id. Every library expresses this natively."""
    tag: str
    cls: str | None = None
    attr: str | None = None
    id: str | None = None

    def css(self) -> str:
        return (self.tag + (f"#{self.id}" if self.id else "") + (f".{self.cls}" if self.cls else "")
                + (f"[{self.attr}]" if self.attr else ""))


def collapse(s: str | None) -> str | None:
    """Whitespace-collapsed text, the form every output is compared in."""
    return None if s is None else " ".join(s.split())


class Adapter:
    name = "?"            # id used on the command line and in results
    label = "?"           # how tables name it
    distributions: tuple[str, ...] = ()   # whose versions go in the metadata
    supports: tuple[str, ...] = ("parse", "extract", "links", "select", "css", "css-alone", "scaling", "memory")

    def __init__(self):
        self._compiled: dict[Q, object] = {}

    # ---- what each library implements -------------------------------------
    # The timed call: a method, or the library's own function, set in __init__ so
    # that no harness frame sits between the timer and the library.
    parse: Callable[[bytes], Any]

    def all(self, scope, q: Q) -> list:
        raise NotImplementedError

    def one(self, scope, q: Q):
        found = self.all(scope, q)
        return found[0] if found else None

    def text(self, el) -> str:
        raise NotImplementedError

    def attr(self, el, name: str) -> str | None:
        raise NotImplementedError

    def select(self, doc, css: str) -> list:
        raise NotImplementedError

    def clean_text(self, el) -> str | None:
        """The element's whitespace-collapsed text, the form every output is compared in;
        a library with a native way to get it overrides this."""
        return collapse(self.text(el))

    # ---- shared helpers ----------------------------------------------------
    def compiled(self, q: Q, make):
        """Native query object for q, built once (CSS/XPath compilation is setup, not work)."""
        c = self._compiled.get(q)
        if c is None:
            c = self._compiled[q] = make(q)
        return c

    def versions(self) -> dict[str, str]:
        out = {}
        for d in self.distributions:
            try:
                out[d] = metadata.version(d)
            except metadata.PackageNotFoundError:
                out[d] = "unknown"
        return out

    def build(self) -> dict[str, str]:
        """How the library at hand was compiled, where that changes its speed."""
        return {}

    # ---- the tasks, written once --------------------------------------------
    def links(self, doc) -> Sequence[tuple[str | None, str | None]]:
        """Every <a href>: (href, whitespace-collapsed text). The adapters override
        this with the same loop written in their library's own calls: a link
        costs a few hundred ns, and two adapter method calls per link would add
        ~100 ns of harness to each parser's time alike."""
        return [(self.attr(a, "href"), self.clean_text(a)) for a in self.all(doc, A_HREF)]

    def select_texts(self, doc, selectors: tuple[str, ...]) -> list[list[str | None]]:
        return [[self.clean_text(e) for e in self.select(doc, css)] for css in selectors]

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        """The css tasks' output: how many elements each selector matches. The
        adapters override this, as they do links, with the loop in their
        library's own calls: an adapter method call per selector added ~30 ns
        of harness to each of the 20 selects, 2.5% of fastparse's css-alone
        time at the median page."""
        return [len(self.select(doc, css)) for css in selectors]

    def records(self, doc, kind: str) -> list:
        return EXTRACTORS[kind](self, doc)


A_HREF = Q("a", attr="href")


def _text_of(ad: Adapter, scope, q: Q) -> str | None:
    el = ad.one(scope, q)
    return None if el is None else ad.clean_text(el)


def books(ad: Adapter, doc) -> list[dict]:
    out = []
    for card in ad.all(doc, Q("article", cls="product_pod")):
        link = ad.one(ad.one(card, Q("h3")), Q("a"))
        stars = (ad.attr(ad.one(card, Q("p", cls="star-rating")), "class") or "").split()
        out.append({
            "title": ad.attr(link, "title"),
            "price": _text_of(ad, card, Q("p", cls="price_color")),
            "rating": next(c for c in stars if c != "star-rating"),
            "availability": _text_of(ad, card, Q("p", cls="availability")),
        })
    return out


def quotes(ad: Adapter, doc) -> list[dict]:
    return [{
        "text": _text_of(ad, q, Q("span", cls="text")),
        "author": _text_of(ad, q, Q("small", cls="author")),
        "tags": [ad.clean_text(t) for t in ad.all(q, Q("a", cls="tag"))],
    } for q in ad.all(doc, Q("div", cls="quote"))]


def laptops(ad: Adapter, doc) -> list[dict]:
    return [{
        "title": ad.attr(ad.one(card, Q("a", cls="title")), "title"),
        "price": _text_of(ad, card, Q("h4", cls="price")),
        "description": _text_of(ad, card, Q("p", cls="description")),
        "reviews": _text_of(ad, card, Q("p", cls="review-count")),
        "stars": ad.attr(ad.one(card, Q("p", attr="data-rating")), "data-rating"),
    } for card in ad.all(doc, Q("div", cls="thumbnail"))]


def search(ad: Adapter, doc) -> list[dict]:
    out = []
    for item in ad.all(doc, Q("li", cls="s-result-item", attr="data-asin")):
        asin = ad.attr(item, "data-asin")
        if not asin:
            continue
        star = ad.one(item, Q("i", cls="a-icon-star"))
        out.append({
            "id": asin,
            "title": _text_of(ad, item, Q("h2")),
            "price": _text_of(ad, item, Q("span", cls="s-price")),
            "rating": None if star is None else _text_of(ad, star, Q("span", cls="a-icon-alt")),
            "badge": ad.one(item, Q("i", cls="a-icon-prime")) is not None,
        })
    return out


def table(ad: Adapter, doc) -> list[dict]:
    # Every table with id="league": one per document, ten in a page concatenated x10.
    out = []
    for t in ad.all(doc, Q("table", id="league")):
        for row in ad.all(t, Q("tr")):
            cells = [ad.clean_text(td) for td in ad.all(row, Q("td"))]
            if cells:
                out.append({"cells": cells})
    return out


EXTRACTORS = {"books": books, "quotes": quotes, "laptops": laptops, "search": search, "table": table}
