"""html5lib (pure-Python WHATWG parser) building xml.etree: iter() plus
attribute checks in Python, itertext(). No CSS engine: no selector task."""
from __future__ import annotations

from .base import A_HREF, Adapter, Q


class Html5libAdapter(Adapter):
    name = label = "html5lib"
    distributions = ("html5lib",)
    supports = ("parse", "extract", "links", "scaling", "memory")

    def __init__(self):
        super().__init__()
        import html5lib
        self._parser = html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)

    def parse(self, data: bytes):
        return self._parser.parse(data)

    def all(self, scope, q: Q) -> list:
        out = []
        for el in scope.iter(q.tag):
            if el is scope:
                continue
            if q.cls and q.cls not in el.get("class", "").split():
                continue
            if q.id and el.get("id") != q.id:
                continue
            if q.attr and q.attr not in el.attrib:
                continue
            out.append(el)
        return out

    def text(self, el) -> str:
        return "".join(el.itertext())

    def attr(self, el, name: str) -> str | None:
        return el.get(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.get("href"), " ".join("".join(a.itertext()).split())) for a in self.all(doc, A_HREF)]
