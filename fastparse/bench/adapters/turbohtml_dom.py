"""turbohtml: a WHATWG DOM, parsed with positions=False (its fast setting): select/select_one, attr, text."""
from __future__ import annotations

from functools import partial

from .base import A_HREF, Adapter, Q


class TurbohtmlAdapter(Adapter):
    name = label = "turbohtml"
    distributions = ("turbohtml",)

    def __init__(self):
        super().__init__()
        import turbohtml
        # the library's call itself, as for every adapter that can: no Python frame
        # of the harness's inside the timed call (a partial is one C call)
        self.parse = partial(turbohtml.parse, positions=False)

    def all(self, scope, q: Q) -> list:
        return scope.select(self.compiled(q, Q.css))

    def one(self, scope, q: Q):
        return scope.select_one(self.compiled(q, Q.css))

    def text(self, el) -> str:
        return el.text

    def attr(self, el, name: str) -> str | None:
        return el.attr(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.attr("href"), " ".join(a.text.split())) for a in self.all(doc, A_HREF)]

    def select(self, doc, css: str) -> list:
        return doc.select(css)

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(doc.select(css)) for css in selectors]
