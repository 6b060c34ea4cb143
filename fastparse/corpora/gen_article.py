"""Generated long article and big table.

The article mixes what real article pages carry: headings, paragraphs with
inline markup and entities, lists, figures, blockquotes, code, comments and a
few scripts. The table is a data table with a header and thousands of rows;
its records are the rows' cell texts."""
from __future__ import annotations

from ._words import ACCENTED, rng, sentence, slug, title, words


def _paragraph(r) -> str:
    out = []
    for _ in range(3 + r.randrange(5)):
        s = sentence(r)
        k = r.randrange(8)
        if k == 0:
            w = title(r, 1, 3)
            s = s[:-1] + f' <a href="https://example.org/{slug(w)}?a=1&amp;b=2" title="{w}">{w}</a>.'
        elif k == 1:
            s = f"<em>{s}</em>"
        elif k == 2:
            s = s[:-1] + f" <strong>{words(r, 2)}</strong> &amp; <code>x &lt; y</code>."
        elif k == 3:
            s = s[:-1] + f" &mdash; {r.choice(ACCENTED)}&nbsp;&copy;&#8212;&#x2014;."
        out.append(s)
    return "<p>" + " ".join(out) + "</p>\n"


def _section(r, n: int) -> str:
    parts = [f'<h2 id="s{n}">{title(r)}</h2>\n']
    for _ in range(4 + r.randrange(5)):
        k = r.randrange(10)
        if k == 0:
            items = "".join(f"<li>{sentence(r, 3, 9)}</li>" for _ in range(3 + r.randrange(5)))
            parts.append(f"<ul class=\"list\">{items}</ul>\n")
        elif k == 1:
            parts.append(f'<figure><img src="/img/{r.randrange(10**6)}.jpg" alt="{words(r, 3)}" loading=lazy>'
                         f"<figcaption>{sentence(r, 4, 8)}</figcaption></figure>\n")
        elif k == 2:
            parts.append(f"<blockquote><p>{sentence(r)}</p><cite>{title(r, 2, 3)}</cite></blockquote>\n")
        elif k == 3:
            parts.append(f"<pre><code>for (i = 0; i &lt; n; i++) {{ {words(r, 4)} }}</code></pre>\n")
        elif k == 4:
            parts.append(f"<!-- {sentence(r)} <p>not a tag</p> -->\n")
        else:
            parts.append(_paragraph(r))
    return "<section>\n" + "".join(parts) + "</section>\n"


def article_page(seed: int = 5, target: int = 300_000) -> tuple[str, None]:
    r = rng(seed)
    head = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title(r, 4, 8)} &ndash; The Long Read</title>\n"
        f'<meta name="description" content="{sentence(r)}">\n'
        '<script type="application/ld+json">{"@type": "NewsArticle", "headline": "a < b"}</script>\n'
        "</head>\n<body>\n<header><nav>"
        + "".join(f'<a href="/{slug(w)}">{w}</a> ' for w in words(r, 12).split())
        + "</nav></header>\n<main><article>\n"
        f"<h1>{title(r, 5, 9)}</h1>\n<p class=\"byline\">By <a rel=author href=\"/a/1\">{title(r, 2, 2)}</a></p>\n"
    )
    body, n = [], 0
    size = len(head)
    while size < target - 400:
        s = _section(r, n)
        body.append(s)
        size += len(s.encode())
        n += 1
    tail = ("</article></main>\n<footer><p>&copy; 2026 Example</p></footer>\n"
            "<script>window.dataLayer = window.dataLayer || []; if (a < b) {}</script>\n</body>\n</html>\n")
    return head + "".join(body) + tail, None


def table_page(seed: int = 6, rows: int = 3000) -> tuple[str, list[dict]]:
    r = rng(seed)
    header = ("Rank", "Name", "City", "Country", "Score", "Change", "Notes")
    trs, truth = [], []
    for i in range(rows):
        cells = [str(i + 1), title(r, 2, 3), title(r, 1, 2), r.choice(ACCENTED), f"{r.randrange(10**5) / 100:.2f}",
                 f"{r.choice('+-')}{r.randrange(100) / 10:.1f}%", words(r, r.randrange(1, 5))]
        cls = ' class="odd"' if i % 2 else ""
        trs.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>\n")
        truth.append({"cells": cells})
    page = (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>League table</title>\n'
        "<style>td { padding: 2px } tr.odd > td { background: #eee }</style>\n</head>\n<body>\n"
        f"<h1>League table</h1>\n<table id=\"league\" class=\"data\">\n<caption>{sentence(r)}</caption>\n"
        "<thead><tr>" + "".join(f"<th>{h}</th>" for h in header) + "</tr></thead>\n"
        "<tbody>\n" + "".join(trs) + "</tbody>\n</table>\n</body>\n</html>\n"
    )
    return page, truth
