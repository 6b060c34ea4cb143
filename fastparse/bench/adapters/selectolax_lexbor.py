"""selectolax with the lexbor backend (LexborHTMLParser): css/css_first, attrs, text()."""
from __future__ import annotations

from .base import A_HREF, Adapter, Q


class SelectolaxAdapter(Adapter):
    name = label = "selectolax"
    distributions = ("selectolax",)

    def __init__(self):
        super().__init__()
        from selectolax.lexbor import LexborHTMLParser
        self.parse = LexborHTMLParser

    def all(self, scope, q: Q) -> list:
        return scope.css(self.compiled(q, Q.css))

    def one(self, scope, q: Q):
        return scope.css_first(self.compiled(q, Q.css))

    def text(self, el) -> str:
        return el.text()

    def attr(self, el, name: str) -> str | None:
        return el.attrs.get(name)   # one attribute; .attributes builds a dict of all of them

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.attrs.get("href"), " ".join(a.text().split())) for a in self.all(doc, A_HREF)]

    def select(self, doc, css: str) -> list:
        return doc.css(css)

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(doc.css(css)) for css in selectors]
