"""Random malformed documents: fastparse's document text against lexbor's textContent.

    python tools/random_text_diff.py [--seed 0] [--count 3000] [--tokens 25] [--show 12]
                                     [--with-templates]

Each document is a random run of up to --tokens pieces: start and end tags whose recovery
rules differ (pre/listing/textarea, raw text, tables, select, svg/math and their
integration points, frameset, formatting and block elements), text with line breaks of
every kind, NULs, character references (to whitespace, to a line feed, C1 and NUL ones,
names without ';'), comments, CDATA and a lone '<' or '&'. fastparse's `doc.text` is
compared with the textContent of lexbor's (selectolax's) <html> element: which characters
the tree builder keeps, drops or moves, and how the text decodes.

Two differences are by design. In a document with a <table>, a flat index keeps
foster-parented text at its place in the source, where the DOM moves it before the
table: there only the characters are compared, not their order. Documents with a
<template> are left out unless asked for: `.text` counts a template's contents as its
children, lexbor's textContent leaves them out.

Result on 2026-12-04 (selectolax 1.0.2): seeds 1, 3, 6 and 8 (4,000 documents each,
about 3,400 compared) and 7 at --tokens 40 (3,000; 2,309 compared): no difference. Before that day's fixes it found, in 3,000 documents of
seed 1 (tables and templates left out): a '<' that opens no tag not counted as text by
the tree builder, the adoption agency's later rounds missing (a <span> or a <math> left
open after </b>), a line feed reference after <pre> kept, and the text of a body that a
<frameset> replaced kept.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse as fp

PIECES = [
    "<pre>", "</pre>", "<textarea>", "</textarea>", "<listing>", "<p>", "</p>", "<b>", "</b>", "<i>", "</i>",
    "<a href=x>", "</a>", "<table>", "</table>", "<tr>", "<td>", "</td>", "<select>", "</select>", "<option>",
    "<svg>", "</svg>", "<math>", "</math>", "<template>", "</template>", "<script>", "</script>", "<style>",
    "</style>", "<title>", "</title>", "<noscript>", "</noscript>", "<div>", "</div>", "<li>", "<ul>", "</ul>",
    "<br>", "</br>", "<!-- c -->", "<![CDATA[x]]>", "<foreignObject>", "<desc>", "<mi>", "<frameset>", "<xmp>",
    "</xmp>", "<iframe>", "</iframe>", "<noembed>", "<button>", "<form>", "</form>", "<h1>", "</h2>",
    "x", "y z", " ", "\n", "\r\n", "\r", "\t", "&#10;", "&amp;", "&lt;", "&#0;", "\0", "&nbsp;", "&#x0d;",
    "&NewLine;", "&#128;", "&notin", "&not", "<", ">", "&",
]


def document(r: random.Random, tokens: int) -> str:
    return "".join(r.choice(PIECES) for _ in range(r.randint(1, tokens)))


def lexbor_text(src: str) -> str:
    from selectolax.lexbor import LexborHTMLParser
    root = LexborHTMLParser(src).root
    return root.text(deep=True) if root is not None else ""


def run(seed: int, count: int, tokens: int, show: int, templates: bool) -> tuple[int, int]:
    r = random.Random(seed)
    compared = differ = 0
    for _ in range(count):
        src = document(r, tokens)
        if not templates and "<template>" in src:
            continue
        compared += 1
        ours, theirs = fp.parse(src).text, lexbor_text(src)
        if "<table>" in src and "<template>" not in src:
            ours, theirs = sorted(ours), sorted(theirs)   # foster parenting moves text
        if ours != theirs:
            differ += 1
            if differ <= show:
                print(f"{src!r}\n  fastparse {ours!r}\n  lexbor    {theirs!r}")
    return compared, differ


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=3000, help="random documents")
    ap.add_argument("--tokens", type=int, default=25, help="pieces per document, at most")
    ap.add_argument("--show", type=int, default=12, help="differences to print")
    ap.add_argument("--with-templates", action="store_true",
                    help="keep the documents with a <template> (their contents count here, not in lexbor)")
    args = ap.parse_args()
    compared, differ = run(args.seed, args.count, args.tokens, args.show, args.with_templates)
    print(f"{compared} documents compared, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
