"""Generated shop pages: a books catalogue and a laptops grid.

The books page follows the structure of a typical e-commerce listing (the
books.toscrape.com layout: a category sidebar, then `article.product_pod`
cards); the laptops page a bootstrap product grid. Each generator returns the
page and the records an extractor must find on it (the ground truth)."""
from __future__ import annotations

from ._words import ACCENTED, rng, sentence, slug, title, words

RATINGS = ("One", "Two", "Three", "Four", "Five")
STARS = '                    <i class="icon-star"></i>\n' * 5


def _head(page_title: str, r) -> str:
    css = "".join(f'    <link rel="stylesheet" href="/static/css/{w}.css">\n' for w in words(r, 4).split())
    return (
        "<!DOCTYPE html>\n<html lang=\"en-us\" class=\"no-js\">\n<head>\n"
        f"    <title>\n    {page_title} | Books to Scrape - Sandbox\n</title>\n"
        '    <meta http-equiv="content-type" content="text/html; charset=UTF-8">\n'
        '    <meta name="viewport" content="width=device-width">\n'
        f"{css}</head>\n"
    )


def books_page(seed: int = 1, products: int = 20) -> tuple[str, list[dict]]:
    r = rng(seed)
    cats = [title(r, 1, 3) for _ in range(50)]
    side = "".join(
        f'<li>\n<a href="catalogue/category/books/{slug(c)}_{i + 2}/index.html">\n    {c}\n</a>\n</li>\n'
        for i, c in enumerate(cats)
    )
    cards, truth = [], []
    for i in range(products):
        name = title(r, 2, 9)
        if r.random() < 0.3:
            name += f": {r.choice(ACCENTED)} & {title(r, 1, 3)}"
        price = f"£{10 + r.randrange(50)}.{r.randrange(100):02d}"
        rating = r.choice(RATINGS)
        stock = r.random() < 0.85
        avail = "In stock" if stock else "Out of stock"
        short = name if len(name) < 40 else name[:37] + "..."
        esc = name.replace("&", "&amp;")
        cards.append(
            '<li class="col-xs-6 col-sm-4 col-md-3 col-lg-3">\n'
            '    <article class="product_pod">\n'
            '            <div class="image_container">\n'
            f'                    <a href="catalogue/{slug(name)}_{1000 - i}/index.html">'
            f'<img src="media/cache/{r.randrange(16**8):08x}.jpg" alt="{esc}" class="thumbnail"></a>\n'
            "            </div>\n"
            f'                <p class="star-rating {rating}">\n{STARS}                </p>\n'
            f'            <h3><a href="catalogue/{slug(name)}_{1000 - i}/index.html" title="{esc}">'
            f"{short.replace('&', '&amp;')}</a></h3>\n"
            '            <div class="product_price">\n'
            f'        <p class="price_color">{price}</p>\n'
            f'<p class="{"instock" if stock else "outofstock"} availability">\n'
            f'    <i class="icon-{"ok" if stock else "remove"}"></i>\n    \n        {avail}\n    \n</p>\n'
            '    <form>\n        <button type="submit" class="btn btn-primary btn-block" '
            'data-loading-text="Adding...">Add to basket</button>\n    </form>\n'
            "            </div>\n    </article>\n</li>\n"
        )
        truth.append({"title": name, "price": price, "rating": rating, "availability": avail})
    body = (
        '<body id="default" class="default">\n'
        '<header class="header container-fluid"><div class="page_inner"><div class="row">'
        '<div class="col-sm-8 h1"><a href="index.html">Books to Scrape</a><small> We love being scraped!</small>'
        "</div></div></div></header>\n"
        '<div class="container-fluid page"><div class="page_inner">\n'
        '<ul class="breadcrumb"><li><a href="index.html">Home</a></li><li class="active">All products</li></ul>\n'
        '<div class="row"><aside class="sidebar col-sm-4 col-md-3"><div class="side_categories">'
        '<ul class="nav nav-list"><li><a href="catalogue/category/books_1/index.html">Books</a><ul>\n'
        f"{side}</ul></li></ul></div></aside>\n"
        '<div class="col-sm-8 col-md-9"><div class="page-header action"><h1>All products</h1></div>\n'
        f"<form method=\"get\" class=\"form-horizontal\"><div style=\"display:none\"></div>"
        f"<strong>1000</strong> results - showing <strong>1</strong> to <strong>{products}</strong>.</form>\n"
        "<section><div><ol class=\"row\">\n" + "".join(cards) + "</ol>\n"
        '<div><ul class="pager"><li class="current">Page 1 of 50</li>'
        '<li class="next"><a href="catalogue/page-2.html">next</a></li></ul></div>\n'
        "</div></section></div></div></div></div>\n"
        '<footer class="footer container-fluid"><!-- ' + sentence(r) + " -->\n</footer>\n"
        '<script src="static/js/jquery.min.js" type="text/javascript"></script>\n'
        "<script type=\"text/javascript\">$(function() { oscar.init(); if (1 < 2) { oscar.ready(); } });</script>\n"
        "</body>\n</html>\n"
    )
    return _head("All products", r) + body, truth


def laptops_page(seed: int = 3, items: int = 60) -> tuple[str, list[dict]]:
    r = rng(seed)
    brands = ("Asus", "Acer", "Lenovo", "Dell", "HP", "Toshiba", "Apple", "MSI")
    cards, truth = [], []
    for i in range(items):
        name = f"{r.choice(brands)} {title(r, 1, 2)} {r.randrange(10, 99)}"
        price = f"${200 + r.randrange(1500)}.{r.randrange(100):02d}"
        desc = f'{name}, {r.choice((13, 14, 15, 17))}.{r.randrange(10)}" HD, Core i{r.choice((3, 5, 7))}, ' \
               f"{r.choice((4, 8, 16))}GB, {r.choice((128, 256, 512))}GB SSD, {words(r, 3)}"
        reviews = f"{r.randrange(15)} reviews"
        stars = 1 + r.randrange(5)
        cards.append(
            '<div class="col-md-4 col-xl-4 col-lg-4">\n<div class="card thumbnail">\n'
            f'<div class="product-wrapper card-body"><img class="img-fluid card-img-top image img-responsive" '
            f'alt="item" src="/images/test-sites/e-commerce/items/cart2.png">\n'
            '<div class="caption">\n'
            f'<h4 class="price float-end card-title pull-right">{price}</h4>\n'
            f'<h4><a href="/test-sites/e-commerce/allinone/product/{100 + i}" class="title" '
            f'title="{name}">{name[:20]}{"..." if len(name) > 20 else ""}</a></h4>\n'
            f'<p class="description card-text">{desc.replace("&", "&amp;").replace(chr(34), "&quot;")}</p>\n'
            "</div>\n"
            f'<div class="ratings"><p class="review-count float-end">{reviews}</p>\n'
            f'<p data-rating="{stars}">' + '<span class="ws-icon ws-icon-star"></span>' * stars + "</p>\n"
            "</div></div></div></div>\n"
        )
        truth.append({"title": name, "price": price, "description": desc, "reviews": reviews,
                      "stars": str(stars)})
    nav = "".join(f'<li class="nav-item"><a class="nav-link" href="/{slug(c)}">{c}</a></li>\n'
                  for c in ("Home", "Computers", "Laptops", "Tablets", "Phones", "Touch"))
    page = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        "<title>Web Scraper Test Sites</title>\n"
        '<link rel="stylesheet" href="/css/app.css">\n</head>\n<body>\n'
        f'<header role="banner" class="navbar navbar-expand-lg"><ul class="navbar-nav">{nav}</ul></header>\n'
        '<div class="wrapper"><div class="container test-site"><div class="row">\n'
        '<div class="col-md-3 sidebar"><ul class="nav flex-column" id="side-menu">'
        + "".join(f'<li class="nav-item"><a href="/c/{k}" class="nav-link">{title(r, 1, 2)}</a></li>'
                  for k in range(12))
        + "</ul></div>\n"
        '<div class="col-md-9"><h1 class="page-header">Computers / Laptops</h1>\n<div class="row">\n'
        + "".join(cards)
        + "</div></div></div></div></div>\n"
        '<footer class="footer"><div class="container"><p>' + sentence(r) + "</p></div></footer>\n"
        "</body>\n</html>\n"
    )
    return page, truth
