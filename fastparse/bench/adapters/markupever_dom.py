"""markupever (html5ever in Rust): parse(bytes, HtmlOptions()), select/select_one, attrs, text()."""
from __future__ import annotations

from .base import A_HREF, Adapter, Q


class MarkupeverAdapter(Adapter):
    name = label = "markupever"
    distributions = ("markupever",)

    def __init__(self):
        super().__init__()
        import markupever
        self._parse, self._options = markupever.parse, markupever.HtmlOptions()

    def parse(self, data: bytes):
        return self._parse(data, self._options)

    def all(self, scope, q: Q) -> list:
        return list(scope.select(self.compiled(q, Q.css)))

    def one(self, scope, q: Q):
        return scope.select_one(self.compiled(q, Q.css))

    def text(self, el) -> str:
        return el.text()

    def attr(self, el, name: str) -> str | None:
        return el.attrs.get(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.attrs.get("href"), " ".join(a.text().split())) for a in self.all(doc, A_HREF)]

    def select(self, doc, css: str) -> list:
        return list(doc.select(css))

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(list(doc.select(css))) for css in selectors]
