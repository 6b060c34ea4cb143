"""The benchmark tasks: which pages each one reads, what is timed, and what
output it must produce.

parse    the parse alone, every page (the floor takes part)
extract  parse + the page's records (generated pages with records, the real
         Amazon listings); every parser's records must equal the reference's
links    parse + every <a href>: (href, whitespace-collapsed text)
select   parse + a few CSS selectors per generated page, the matches' texts
css      parse + 20 typical scraping selectors (CSS_SELECTORS), the match counts,
         every real page (issue 4's selector-heavy task)
css-alone  the same 20 selectors on a document parsed beforehand: select alone
         (each parser keeps what its first select built, as it would in use)
scaling  parse time and memory against size, 10 KB -> 10 MB, same content mix
memory   retained and peak memory per parsed document, fresh process per page
"""
from __future__ import annotations

from collections.abc import Callable

from ..corpora import Page

TASKS = ("parse", "extract", "links", "select", "css", "css-alone", "scaling", "memory")
TIMED = ("parse", "extract", "links", "select", "css", "css-alone", "scaling")

SELECTORS = {
    "books": ("article.product_pod h3 > a", "p.price_color", "ol.row > li:nth-child(2n+1) p.availability",
              "aside a[href*='category']"),
    "quotes": ("div.quote > span.text", "div.tags a.tag", "div.tags-box span.tag-item a"),
    "laptops": ("div.thumbnail h4 > a.title", "div.ratings p[data-rating]", "div.caption > p.description"),
    "search": ("li.s-result-item[data-asin] h2.s-access-title", "i.a-icon-star > span.a-icon-alt",
               "#leftNav a[href^='/s?rh']", "span.s-price"),
    "table": ("table#league tbody tr:nth-child(10n) > td:first-child", "tr.odd td:last-child"),
}


# What scrapers ask of an arbitrary page: metadata, links, images, headings, lists,
# tables, structured data, forms. Only selectors every peer's engine supports
# (lexbor, soupsieve, cssselect, turbohtml, markupever).
CSS_SELECTORS = (
    "title", "meta[name=description]", "meta[property^='og:']", "link[rel=canonical]",
    "a[href]", "a[href^='http']", "img[src]", "img[alt]", "h1", "h2, h3", "p", "ul li a",
    "nav a", "table tr td", "script[type='application/ld+json']", "div[class] > p",
    "[itemprop]", "form input[name]", "li:first-child", "div:not([class]) > span",
)


def pages_for(task: str, pages: list[Page]) -> list[Page]:
    """The pages a task runs on. The x10 concatenations serve parse (linear
    growth) only: for the other tasks they repeat the base page's work."""
    base = [p for p in pages if not p.id.endswith(".x10")]
    if task == "parse":
        return list(pages)
    if task == "extract":
        return [p for p in base if p.extractor]
    if task == "links":
        return base
    if task == "select":
        return [p for p in base if p.origin == "generated" and p.extractor in SELECTORS]
    if task in ("css", "css-alone"):
        return [p for p in base if p.origin == "real"]
    if task == "memory":
        return base
    raise ValueError(task)


def timed_call(task: str, adapter, page: dict, data: bytes | None = None) -> Callable[[bytes], object]:
    """The function a worker times for (task, adapter, page); its return value
    is the output that validation compares. css-alone parses `data` here, untimed."""
    parse = adapter.parse
    if task in ("parse", "scaling"):
        return parse
    if task == "extract":
        kind = page["extractor"]
        return lambda data: adapter.records(parse(data), kind)
    if task == "links":
        return lambda data: adapter.links(parse(data))
    if task == "select":
        selectors = SELECTORS[page["extractor"]]
        return lambda data: adapter.select_texts(parse(data), selectors)
    if task == "css":
        return lambda data: adapter.select_counts(parse(data), CSS_SELECTORS)
    if task == "css-alone":
        doc = parse(data)
        return lambda _: adapter.select_counts(doc, CSS_SELECTORS)
    raise ValueError(task)
