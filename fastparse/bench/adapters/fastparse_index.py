"""fastparse: the flat element index (find/find_all with cls=, attrs=; select once CSS lands)."""
from __future__ import annotations

from .base import A_HREF, Adapter, Q


class FastparseAdapter(Adapter):
    name = label = "fastparse"
    distributions = ("fastparse",)

    def __init__(self):
        super().__init__()
        import fastparse
        self.parse = fastparse.parse   # the library's call itself: no harness frame in the timed call
        if not hasattr(fastparse.Document if hasattr(fastparse, "Document") else object, "select"):
            self.supports = tuple(t for t in self.supports if t != "select")

    def build(self) -> dict[str, str]:
        from fastparse import _core
        return {"extension": _core.BUILD, "scan": _core.SCAN_IMPL, "cpu": _core.CPU}

    @staticmethod
    def _kwargs(q: Q) -> dict:
        kw: dict = {"name": q.tag}
        if q.cls:
            kw["cls"] = q.cls
        if q.id:
            kw["id"] = q.id
        if q.attr:
            kw["attrs"] = {q.attr: True}
        return kw

    def all(self, scope, q: Q) -> list:
        return scope.find_all(**self.compiled(q, self._kwargs))

    def one(self, scope, q: Q):
        found = scope.find(**self.compiled(q, self._kwargs))
        return found if found else None

    def text(self, el) -> str:
        return el.text

    def clean_text(self, el) -> str:
        return el.get_text(skip=(), collapse=True)   # .text collapsed, in C

    def attr(self, el, name: str) -> str | None:
        return el.get(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.get("href"), a.get_text(skip=(), collapse=True)) for a in self.all(doc, A_HREF)]

    def select(self, doc, css: str) -> list:
        return doc.select(css)

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(doc.select(css)) for css in selectors]
