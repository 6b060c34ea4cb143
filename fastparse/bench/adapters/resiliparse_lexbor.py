"""Resiliparse (lexbor in Cython): detect_encoding + HTMLTree.parse_from_bytes, query_selector(_all)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import A_HREF, Adapter, Q


class ResiliparseAdapter(Adapter):
    name = label = "resiliparse"
    distributions = ("Resiliparse",)

    def __init__(self):
        super().__init__()
        from resiliparse.parse.encoding import detect_encoding
        from resiliparse.parse.html import HTMLTree
        # typed loosely: the stubs let detect_encoding return None, which
        # parse_from_bytes refuses; it named an encoding on every page measured,
        # and the adapter times the documented calls as they are
        self._detect: Callable[[bytes], Any] = detect_encoding
        self._from_bytes: Callable[[bytes, Any], Any] = HTMLTree.parse_from_bytes

    def parse(self, data: bytes):
        # Resiliparse decodes with the encoding it is given; its documented
        # way to handle raw bytes of unknown encoding is detect_encoding first.
        return self._from_bytes(data, self._detect(data)).document

    def all(self, scope, q: Q) -> list:
        # NOTE: iterating an ElementNodeList indexes it item by item, and each
        # index walks the list (3,000 table rows: 70 s); a slice copies it in one
        # pass. We give every peer its fast path, so resiliparse gets the slice.
        return scope.query_selector_all(self.compiled(q, Q.css))[:]

    def one(self, scope, q: Q):
        return scope.query_selector(self.compiled(q, Q.css))

    def text(self, el) -> str:
        return el.text

    def attr(self, el, name: str) -> str | None:
        return el.getattr(name)

    def links(self, doc) -> list[tuple[str, str]]:
        return [(a.getattr("href"), " ".join(a.text.split())) for a in self.all(doc, A_HREF)]

    def select(self, doc, css: str) -> list:
        return doc.query_selector_all(css)[:]

    def select_counts(self, doc, selectors: tuple[str, ...]) -> list[int]:
        return [len(doc.query_selector_all(css)[:]) for css in selectors]
