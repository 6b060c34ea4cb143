"""Compiled programs, cached by selector text (and by codec for legacy documents)."""

from __future__ import annotations

from functools import lru_cache

from .compiler import compile_selector, transcode
from .parser import parse

CACHE_SIZE = 1024

programs: dict[str, bytes] = {}  # a plain dict: select() looks here first, ~30 ns


def program(css: str) -> bytes:
    """The program for `css` (a TypeError for a non-str, SelectorError when invalid)."""
    prog = programs.get(css) if type(css) is str else None
    if prog is None:
        if not isinstance(css, str):
            raise TypeError(f"selector must be str, not {type(css).__name__}")
        css = str(css)
        prog = compile_selector(parse(css))
        if len(programs) >= CACHE_SIZE:
            programs.clear()  # simpler than LRU; real code uses a handful of selectors
        programs[css] = prog
    return prog


@lru_cache(maxsize=CACHE_SIZE)
def transcoded(prog: bytes, codec: str) -> bytes:
    """Called from py_select.c for a legacy-encoded document whose selector has non-ASCII strings."""
    return transcode(prog, codec)
