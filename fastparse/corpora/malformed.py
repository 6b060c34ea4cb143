"""Malformed variants of generated pages: the same records, written the way
sloppy or minified real pages write them. An HTML5 parser must recover the
same structure (and so the same records) from each."""
from __future__ import annotations

import re


def without_end_tags(page: str, names: tuple[str, ...]) -> str:
    """Drop every end tag of the given names (`</li>`, `</p>`, `</td>`): the
    HTML5 implied-end-tag rules close them."""
    return re.sub(r"</(?:" + "|".join(names) + r")\s*>", "", page)


_ATTR = re.compile(r'(\s[a-zA-Z-]+)="([^"\s\'=<>`]+)"')


def unquote_attributes(page: str) -> str:
    """Drop the quotes around every attribute value that may go unquoted (no
    whitespace, quotes, '=', '<', '>' or backtick), as HTML minifiers do."""
    return _ATTR.sub(r"\1=\2", page)
