"""The workload the profile-guided build trains on (build_support/pgo.py).

    python pgo_train.py SITE      SITE holds a fastparse package whose _core is instrumented

What runs here is what the profile makes fast, and code the training runs only
rarely is compiled as cold (less inlining): so each page is parsed and then
queried as a scraper does, every round, links, selectors, text and finds
weighted about as much as the parse. Its pages are the project's own: the generated corpus
(fastparse.corpora.generated, each page given the same number of elements so
its 3,000-row tables do not outweigh the rest) and a portal-like page written
below (head scripts and JSON, navigation lists, cards with inline SVG icons,
forms, comments, entities). Never the real pages the benchmark measures.
"""
from __future__ import annotations

import random
import sys

ELEMENTS_PER_PAGE = 100_000   # rounds on each page until it has indexed about this many elements
SELECTORS = (
    "a[href]", "div.card > a", "ul li:nth-child(2n+1)", "img[src$='.jpg']", "h2, h3",
    "form input[name]", "span.price", ":is(nav, footer) a", "li:not(.active)", "section:has(h2)",
    "meta[name]", "link[rel~=stylesheet]", "a[href*='/p/']", "p", "table td", "[data-id]",
    "li:last-child", "div > span", "img[alt]", "script[type]",
)


def portal_page(seed: int = 11, cards: int = 120) -> bytes:
    r = random.Random(seed)
    word = lambda: r.choice(("market", "river", "garden", "copper", "summit", "ember", "café", "naïve"))
    head = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<title>Portal &amp; news</title><link rel="stylesheet" href="/s.css">'
            '<script type="application/ld+json">{"@type": "WebSite", "name": "p<b>"}</script>'
            '<script>var cfg = {a: 1 < 2, b: "</div>"}; if (x && y) { go(); }</script>'
            '<style>.card > a { color: red }</style></head><body class="home">')
    nav = "<nav><ul>" + "".join(
        f'<li class="{"active" if i == 0 else "item"}"><a href="/s/{i}">{word()}</a></li>'
        for i in range(12)) + "</ul></nav>"
    icon = ('<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">'
            '<path d="M12 2L2 7l10 5 10-5z"/><circle cx="12" cy="12" r="3"/></svg>')
    body = []
    for i in range(cards):
        body.append(
            f'<div class="card" data-id="{i}" data-json=\'{{"k": {i}}}\'><a href="/p/{i}?a=1&amp;b=2">'
            f'<img src="/i/{i}.jpg" alt="{word()}" loading=lazy></a>{icon}'
            f'<h3>{word()} {word()}</h3><p>{word()} &mdash; {word()}<br>{word()}'
            f'<span class="price">&euro;{r.randint(1, 999)}.99</span></div><!-- card {i} -->')
        if i % 30 == 0:
            body.append(f'<section><h2>{word()}</h2><table><tr><td>{word()}<td>{i}</table></section>')
    form = ('<form action="/q"><input type="text" name="q" value="a&quot;b"><select name="s">'
            '<option value=1 selected>one<option value=2>two</select><textarea>a <b> c</textarea>'
            '<button type=submit>Go</button></form>')
    foot = '<footer><p>&copy; 2026 <a href="/about">About</a><p>x</footer></body></html>'
    return (head + nav + "".join(body) + form + foot).encode("utf-8")


def main(site: str) -> int:
    sys.path.insert(0, site)
    import fastparse as fp
    from fastparse.corpora import generated

    if not fp._core.__file__.startswith(site):
        raise SystemExit(f"pgo_train.py: imported {fp._core.__file__}, not the build in {site}")
    pages = [generated.build(name)[0] for name in generated.SPECS if not name.endswith(".x10")]
    pages.append(portal_page())
    for data in pages:
        for _ in range(max(1, ELEMENTS_PER_PAGE // max(1, len(fp.parse(data))))):
            scrape(fp.parse(data))
    return 0


def scrape(doc) -> None:
    """What a scraper asks of a parsed page."""
    [(a.get("href"), a.get_text(skip=(), collapse=True)) for a in doc.select("a[href]")]
    for css in SELECTORS:
        doc.select(css)
    for tag in doc.find_all("span"):
        _ = tag.text, tag.attrs
    doc.find_all("div", cls="card")
    _ = doc.find("title").text
    doc.select_one("div, p").closest("body")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
