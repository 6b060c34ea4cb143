"""lxml.html (libxml2's HTML 4 parser): document_fromstring, precompiled XPath,
text_content(); CSS through cssselect's CSSSelector for the selector task."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import A_HREF, Adapter, Q


def _xpath(q: Q):
    from lxml import etree
    preds = []
    if q.cls:
        preds.append(f"contains(concat(' ', normalize-space(@class), ' '), ' {q.cls} ')")
    if q.id:
        preds.append(f"@id='{q.id}'")
    if q.attr:
        preds.append(f"@{q.attr}")
    return etree.XPath(f"descendant::{q.tag}" + "".join(f"[{p}]" for p in preds))


class LxmlAdapter(Adapter):
    name = "lxml"
    label = "lxml.html"
    distributions = ("lxml",)

    def __init__(self):
        super().__init__()
        import lxml.html
        self.parse = lxml.html.document_fromstring
        self._css: dict[str, Callable[[Any], list]] = {}

    def all(self, scope, q: Q) -> list:
        return self.compiled(q, _xpath)(scope)

    def text(self, el) -> str:
        return el.text_content()

    def attr(self, el, name: str) -> str | None:
        return el.get(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.get("href"), " ".join(a.text_content().split())) for a in self.all(doc, A_HREF)]

    def _selector(self, css: str):
        from lxml.cssselect import CSSSelector
        sel = self._css[css] = CSSSelector(css)
        return sel

    def select(self, doc, css: str) -> list:
        return (self._css.get(css) or self._selector(css))(doc)

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        compiled = self._css
        return [len((compiled.get(css) or self._selector(css))(doc)) for css in selectors]
