"""BeautifulSoup 4 with two tree builders (html.parser, lxml): find/find_all
with class_=, get(), get_text(); select() (soupsieve) for the selector task."""
from __future__ import annotations

from .base import A_HREF, Adapter, Q


class _Soup(Adapter):
    builder = "?"

    def __init__(self):
        super().__init__()
        from bs4 import BeautifulSoup
        self._soup = BeautifulSoup

    def parse(self, data: bytes):
        return self._soup(data, self.builder)

    @staticmethod
    def _kwargs(q: Q) -> dict:
        kw: dict = {"name": q.tag}
        attrs: dict[str, str | bool] = {}
        if q.cls:
            kw["class_"] = q.cls
        if q.id:
            attrs["id"] = q.id
        if q.attr:
            attrs[q.attr] = True
        if attrs:
            kw["attrs"] = attrs
        return kw

    def all(self, scope, q: Q) -> list:
        return scope.find_all(**self.compiled(q, self._kwargs))

    def one(self, scope, q: Q):
        return scope.find(**self.compiled(q, self._kwargs))

    def text(self, el) -> str:
        return el.get_text()

    def attr(self, el, name: str) -> str | None:
        v = el.get(name)
        # bs4 splits multi-valued attributes (class, rel) into lists.
        return " ".join(v) if isinstance(v, list) else v

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.get("href"), " ".join(a.get_text().split())) for a in self.all(doc, A_HREF)]   # href is never split

    def select(self, doc, css: str) -> list:
        return doc.select(css)

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(doc.select(css)) for css in selectors]


class Bs4HtmlParserAdapter(_Soup):
    name = "bs4-html.parser"
    label = "bs4 + html.parser"
    builder = "html.parser"
    distributions = ("beautifulsoup4",)


class Bs4LxmlAdapter(_Soup):
    name = "bs4-lxml"
    label = "bs4 + lxml"
    builder = "lxml"
    distributions = ("beautifulsoup4", "lxml")
