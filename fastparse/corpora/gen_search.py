"""Generated search-results page: about 1 MB, 100+ inline scripts, about 4,000
tags and 27 results (id, title, price, rating, badge flag).

It copies the layout of the Amazon search listings in the real corpus
(`li.s-result-item[data-asin]`, `h2.s-access-title`, `span.s-price`,
`i.a-icon-star > span.a-icon-alt`, a Prime badge `i.a-icon-prime`), so one
extractor serves the generated page and the real ones. Most of the bytes are
inline JavaScript and JSON in attributes, as on the real pages."""
from __future__ import annotations

from ._words import js_blob, rng, sentence, title, words

RESULTS = 27


def _asin(r) -> str:
    return "B0" + "".join(r.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(8))


def _result(r, i: int) -> tuple[str, dict]:
    asin, name = _asin(r), title(r, 4, 14) + f" {r.randrange(100, 2000)}ml &amp; {title(r, 1, 2)}"
    plain = name.replace("&amp;", "&")
    price = f"EUR {r.randrange(5, 300)},{r.randrange(100):02d}" if r.random() < 0.9 else None
    rating = f"{r.randrange(1, 6)},{r.randrange(10)} von 5 Sternen" if r.random() < 0.8 else None
    prime = r.random() < 0.6
    url = f"https://www.example.de/{'-'.join(plain.split()[:4])}/dp/{asin}/ref=sr_1_{i + 1}?ie=UTF8&amp;qid=1548781468&amp;sr=8-{i + 1}"
    img = f"https://images.example.com/images/I/{asin}._AC_US218_.jpg"
    srcset = ", ".join(f"{img[:-4]}_{k}.jpg {k}x" for k in (1, 1.5, 2, 2.2935))
    popover = ("{&quot;max-width&quot;:&quot;700&quot;,&quot;closeButton&quot;:&quot;false&quot;,"
               f"&quot;url&quot;:&quot;/review/widgets/average-customer-review/popover/ref=acr_search?asin={asin}&quot;}}")
    html = (
        f'<li id="result_{i}" data-asin="{asin}" class="s-result-item celwidget  ">'
        '<div class="s-item-container"><div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" '
        'style="padding-left:218px"><div class="a-fixed-left-grid-col a-col-left" style="width:218px;float:left;">'
        '<div class="a-row"><div aria-hidden="true" class="a-column a-span12 a-text-center">'
        f'<a class="a-link-normal a-text-normal" href="{url}"><img src="{img}" srcset="{srcset}" width="218" '
        f'height="218" alt="{name}" class="s-access-image cfMarker" data-search-image-load></a>'
        "</div></div></div>"
        '<div class="a-fixed-left-grid-col a-col-right" style="padding-left:2%;float:left;">'
        '<div class="a-row a-spacing-small"><div class="a-row a-spacing-none scx-truncate-medium sx-line-clamp-2">'
        f'<a class="a-link-normal s-access-detail-page a-text-normal" title="{name}" href="{url}">'
        f'<h2 data-attribute="{name}" data-max-rows="2" class="a-size-medium s-inline  s-access-title  '
        f'a-text-normal">{name}</h2></a></div>'
        '<div class="a-row a-spacing-none"><span class="a-size-small a-color-secondary">von </span>'
        f'<span class="a-size-small a-color-secondary">{title(r, 1, 2)}</span></div></div>'
        '<div class="a-row"><div class="a-column a-span7"><div class="a-row a-spacing-none">'
        f'<a class="a-link-normal a-text-normal" href="{url}"><span class="a-size-small a-color-secondary"></span>'
        + (f'<span class="a-size-base a-color-price s-price a-text-bold">{price}</span>' if price else "")
        + "</a>"
        + ('<span class="a-letter-space"></span><i class="a-icon a-icon-prime a-icon-small s-align-text-bottom" '
           'aria-label="Prime"><span class="a-icon-alt">Prime</span></i>' if prime else "")
        + '</div><div class="a-row a-spacing-mini"><span class="a-size-small a-color-secondary">'
        f"{sentence(r, 3, 6)}</span></div></div>"
        '<div class="a-column a-span5 a-span-last"><div class="a-row a-spacing-mini">'
        + (f'<span name="{asin}">\n    <span class="a-declarative" data-action="a-popover" '
           f'data-a-popover="{popover}"><a href="javascript:void(0)" class="a-popover-trigger a-declarative">'
           f'<i class="a-icon a-icon-star a-star-4"><span class="a-icon-alt">{rating}</span></i>'
           '<i class="a-icon a-icon-popover"></i></a></span></span>\n' if rating else "")
        + f'<a class="a-size-small a-link-normal a-text-normal" href="{url}#customerReviews">{r.randrange(1, 999)}</a>'
        "</div></div></div></div></div></div></div></li>"
    )
    record = {"id": asin, "title": plain, "price": price, "rating": rating, "badge": prime}
    return html, record


def _script(r, size: int) -> str:
    return f'<script type="text/javascript">\n{js_blob(r, size)}</script>\n'


def search_page(seed: int = 4, target: int = 1_000_000) -> tuple[str, list[dict]]:
    r = rng(seed)
    results, truth = zip(*(_result(r, i) for i in range(RESULTS)))
    nav = "".join(
        f'<div class="nav-a nav-b"><a href="/s?k={w}&amp;ref=nav_{k}" class="nav-link"><span class="nav-text">'
        f"{w}</span></a></div>\n"
        for k, w in enumerate(words(r, 550).split())
    )
    facets = "".join(
        f'<li><span class="a-list-item"><a class="a-link-normal s-ref-text-link" href="/s?rh=n%3A{r.randrange(10**8)}">'
        f'<span class="a-size-small a-color-base">{title(r, 1, 3)}</span></a></span></li>\n'
        for _ in range(330)
    )
    head_scripts = "".join(_script(r, 2500 + r.randrange(2500)) for _ in range(60))
    mid_scripts = "".join(_script(r, 2500 + r.randrange(2500)) for _ in range(50))
    page = (
        '<!doctype html><html lang="de-de" class="a-no-js" data-19ax5a9jf="dingo"><head>\n'
        '<meta http-equiv="content-type" content="text/html;charset=UTF-8">\n'
        "<title>Amazon.de: plastikfrei flasche</title>\n"
        f"{head_scripts}"
        '<style type="text/css">.s-result-item{margin:0} a > span { color: #111 } .a-icon-star:after{content:"<"}</style>\n'
        '</head><body class="a-aui_72554-c a-aui_dropdown_187959-c">\n'
        f'<div id="nav-belt">{nav}</div>\n'
        '<div id="leftNav"><ul class="a-unordered-list a-nostyle a-vertical">\n' + facets + "</ul></div>\n"
        '<div id="atfResults" class="a-row s-result-list-parent-container">'
        '<ul id="s-results-list-atf" class="s-result-list s-col-1 s-col-ws-1 s-result-list-hgrid">'
        + "".join(results)
        + "</ul></div>\n"
        f"{mid_scripts}"
        '<div id="navFooter"><!-- footer start -->' + "".join(f"<p>{sentence(r)}</p>" for _ in range(20))
        + "</div>\n"
    )
    # Pad with one more script up to the target size, so the page stays about 1 MB.
    pad = max(0, target - len(page.encode()) - 40)
    page += _script(r, pad) if pad > 200 else ""
    page += "</body></html>\n"
    return page, list(truth)
