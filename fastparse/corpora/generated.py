"""The generated corpus: every synthetic page by id, with its ground truth.

Pages are rebuilt from fixed seeds on demand (the same bytes everywhere), so
the repository commits the generators, not the pages. Each base page also
comes concatenated x10 (records x10): the linear-growth check."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from . import gen_article, gen_quotes, gen_search, gen_shop, malformed


@dataclass(frozen=True)
class Spec:
    name: str          # page id without the "generated/" prefix
    kind: str          # corpus kind, as in the real manifest where one fits
    extractor: str | None   # which records task reads it (None: no records)
    build: Callable[[], tuple[str, list | None]]


def _variant(base: Callable, edit: Callable[[str], str]) -> Callable:
    def build():
        page, truth = base()
        return edit(page), truth
    return build


def _x10(base: Callable) -> Callable:
    def build():
        page, truth = base()
        return page * 10, (truth * 10 if truth is not None else None)
    return build


_BASE = (
    Spec("books", "catalog", "books", gen_shop.books_page),
    Spec("quotes", "listing", "quotes", gen_quotes.quotes_page),
    Spec("laptops", "catalog", "laptops", gen_shop.laptops_page),
    Spec("search", "search", "search", gen_search.search_page),
    Spec("article", "article", None, gen_article.article_page),
    Spec("table", "table", "table", gen_article.table_page),
    Spec("books-no-end-li-p", "malformed", "books",
         _variant(gen_shop.books_page, lambda p: malformed.without_end_tags(p, ("li", "p")))),
    Spec("books-unquoted-attrs", "malformed", "books",
         _variant(gen_shop.books_page, malformed.unquote_attributes)),
    Spec("table-unclosed-td", "malformed", "table",
         _variant(gen_article.table_page, lambda p: malformed.without_end_tags(p, ("td",)))),
)

SPECS: dict[str, Spec] = {s.name: s for s in _BASE}
SPECS.update({f"{s.name}.x10": Spec(f"{s.name}.x10", s.kind, s.extractor, _x10(s.build)) for s in _BASE})


@cache
def build(name: str) -> tuple[bytes, list | None]:
    """The page's UTF-8 bytes and its records (None for pages without records)."""
    page, truth = SPECS[name].build()
    return page.encode("utf-8"), truth


@lru_cache(maxsize=8)
def scaling_page(size: int) -> bytes:
    """A page of about `size` bytes with the same content mix at every size:
    the article's head, its sections repeated, its tail. Used by the scaling
    sweep, so time per byte is comparable from 10 KB to 10 MB."""
    page, _ = gen_article.article_page(seed=7, target=300_000)
    head, rest = page.split("<section>", 1)
    sections = ["<section>" + s for s in rest.split("<section>")]
    tail_at = sections[-1].index("</section>") + len("</section>\n")
    sections[-1], tail = sections[-1][:tail_at], sections[-1][tail_at:]
    out, n, k = [head], len(head) + len(tail), 0
    while n < size:
        s = sections[k % len(sections)]
        out.append(s)
        n += len(s.encode())
        k += 1
    out.append(tail)
    return "".join(out).encode("utf-8")
