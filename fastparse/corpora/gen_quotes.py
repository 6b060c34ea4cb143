"""Generated quotes page: 10 quotes (text, author, tags), the quotes.toscrape.com layout."""
from __future__ import annotations

from ._words import NAMES, WORDS, rng, sentence, slug


def quotes_page(seed: int = 2, count: int = 10) -> tuple[str, list[dict]]:
    r = rng(seed)
    blocks, truth = [], []
    for _ in range(count):
        text = "\u201c" + " ".join(sentence(r) for _ in range(1 + r.randrange(3))) + "\u201d"
        author = r.choice(NAMES)
        tags = sorted({r.choice(WORDS[60:]) for _ in range(1 + r.randrange(4))})
        tag_html = "".join(f'\n            <a class="tag" href="/tag/{t}/page/1/">{t}</a>' for t in tags)
        blocks.append(
            '    <div class="quote" itemscope itemtype="http://schema.org/CreativeWork">\n'
            f'        <span class="text" itemprop="text">{text}</span>\n'
            f'        <span>by <small class="author" itemprop="author">{author}</small>\n'
            f'        <a href="/author/{slug(author)}">(about)</a>\n        </span>\n'
            '        <div class="tags">\n            Tags:\n'
            f'            <meta class="keywords" itemprop="keywords" content="{",".join(tags)}" /    > '
            f"{tag_html}\n        </div>\n    </div>\n"
        )
        truth.append({"text": text, "author": author, "tags": tags})
    top = "".join(f'<span class="tag-item"><a class="tag" style="font-size: {10 + r.randrange(20)}px" '
                  f'href="/tag/{w}/">{w}</a></span>\n' for w in WORDS[60:70])
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n\t<meta charset="UTF-8">\n'
        "\t<title>Quotes to Scrape</title>\n"
        '    <link rel="stylesheet" href="/static/bootstrap.min.css">\n</head>\n<body>\n'
        '    <div class="container">\n        <div class="row header-box">\n'
        '            <div class="col-md-8"><h1><a href="/" style="text-decoration: none">Quotes to Scrape</a></h1>'
        "</div>\n"
        '            <div class="col-md-4"><p><a href="/login">Login</a></p></div>\n        </div>\n'
        '<div class="row">\n    <div class="col-md-8">\n' + "".join(blocks)
        + '    <nav><ul class="pager"><li class="next"><a href="/page/2/">Next <span aria-hidden="true">'
        "&rarr;</span></a></li></ul></nav>\n    </div>\n"
        f'    <div class="col-md-4 tags-box"><h2>Top Ten tags</h2>\n{top}</div>\n</div>\n'
        '    </div>\n    <footer class="footer"><div class="container"><p class="text-muted">'
        'Quotes by: <a href="https://www.goodreads.com/quotes">GoodReads.com</a></p>\n'
        '<p class="copyright">Made with <span class="zyte">&hearts;</span> by '
        '<a href="https://www.zyte.com">Zyte</a></p></div></footer>\n</body>\n</html>\n'
    )
    return page, truth
