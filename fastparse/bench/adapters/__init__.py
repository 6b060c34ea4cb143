"""The parser adapters, one per peer, all with the same surface (base.Adapter).

`load(name)` imports a peer only when asked, so a missing library is skipped
and named rather than breaking the run. More adapters can be plugged in
without editing this package: FASTPARSE_BENCH_ADAPTERS="name=module:Class,..."
(worker processes inherit the variable; the tests use it for a deliberately
wrong adapter)."""
from __future__ import annotations

import os
from importlib import import_module

from .base import Adapter, Q, collapse

# name -> (module, class); the order is the order of tables and plots.
REGISTRY = {
    "fastparse": ("fastparse_index", "FastparseAdapter"),
    "floor": ("memchr_floor", "FloorAdapter"),
    "selectolax": ("selectolax_lexbor", "SelectolaxAdapter"),
    "turbohtml": ("turbohtml_dom", "TurbohtmlAdapter"),
    "resiliparse": ("resiliparse_lexbor", "ResiliparseAdapter"),
    "markupever": ("markupever_dom", "MarkupeverAdapter"),
    "lxml": ("lxml_html", "LxmlAdapter"),
    "bs4-lxml": ("bs4_soup", "Bs4LxmlAdapter"),
    "bs4-html.parser": ("bs4_soup", "Bs4HtmlParserAdapter"),
    "html5lib": ("html5lib_etree", "Html5libAdapter"),
}
NAMES = tuple(REGISTRY)


def _plugged() -> dict[str, tuple[str, str]]:
    spec = os.environ.get("FASTPARSE_BENCH_ADAPTERS", "")
    out = {}
    for item in filter(None, (s.strip() for s in spec.split(","))):
        name, _, target = item.partition("=")
        module, _, cls = target.partition(":")
        out[name] = (module, cls)
    return out


def registry() -> dict[str, tuple[str, str]]:
    return {**REGISTRY, **_plugged()}


def load(name: str) -> Adapter:
    module, cls = registry()[name]
    path = f"{__name__}.{module}" if name in REGISTRY else module
    return getattr(import_module(path), cls)()


def available(names=NAMES) -> tuple[dict[str, Adapter], dict[str, str]]:
    """Adapters that import, and for the rest the reason they were skipped."""
    ok, skipped = {}, {}
    known = registry()
    for n in names:
        if n not in known:
            raise ValueError(f"unknown parser {n!r}; known: {', '.join(known)}")
        try:
            ok[n] = load(n)
        except Exception as exc:  # noqa: BLE001 — ImportError, or a peer that fails to initialise
            skipped[n] = f"{type(exc).__name__}: {exc}"
    return ok, skipped


__all__ = ["NAMES", "REGISTRY", "Adapter", "Q", "available", "collapse", "load"]
