"""Random misnested formatting markup: where each source element ends up, against two spec parsers.

    python tools/clone_tree_diff.py [--seed 0] [--count 2000] [--tokens 20] [--show 10]

tools/random_tree_diff.py excuses every document in which the spec clones an element (the
adoption agency, the reconstruction of active formatting elements): a flat index of the
source's tags holds no clones, so whole trees cannot agree. This tool compares what can
agree. Every start tag of a random document gets a `data-n` attribute with its own number,
so in each reference tree (lexbor's through selectolax, html5lib's) the element a start tag
made is known, and a clone (which copies its original's attributes) is the second element
with a number. For each numbered element in fastparse's index it checks
- that the references have it (an ignored start tag makes none),
- its parent: the nearest numbered ancestor that is no clone (what sits inside a clone
  sits, in the index, in the element the clone went on),
- its text (whitespace collapsed), which in a DOM holds the text its clones' contents
  hold when they sit inside it.
A document counts when fastparse disagrees with *both* references on one of these.

Result at 2026-12-07 (selectolax 1.0.2, html5lib 1.1): seeds 0-1999 at --tokens 20, 10000-11999
at 40 and 20000-21999 at 60, no document; seeds 30000-31999 at 80, 3: an element fostered
after a cell that the DOM's implied row holds open (the README's first limitation), and two
where the references differ from each other too and, followed by hand, from the standard:
html5lib 1.1 keeps on the list the elements the inner loop counts past three (the standard
removes them since 2016), and lexbor leaves open what the clone's last round pops. The build
before that day's changes differed in 60 and 331 of the first two runs: the agency's later
rounds kept the formatting elements in the block open, a clone's agency did not count the
clones inside it, the eighth round left no clone open, and the index dropped the marker of
an <object>, <marquee> or <applet> that an end tag of an element below it popped (a cell's
end, </table>), which the spec's list keeps ('<table><td><em><marquee></td><small></em>
<nav>': the nav is the table's sibling, not in the small).

The numbers change one rule: no two elements have equal attributes, so the "Noah's Ark"
clause (at most three equal entries in the list of active formatting elements) never
applies here; tests/test_recovery.py checks it.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fastparse

FORMATTING = ["a", "b", "i", "u", "em", "strong", "nobr", "font", "code", "s", "small", "big", "tt", "strike"]
OTHERS = ["p", "div", "span", "ul", "li", "dl", "dd", "h1", "h2", "blockquote", "address", "center",
          "section", "pre", "table", "tbody", "tr", "td", "th", "caption", "form", "option",
          "button", "applet", "object", "marquee", "svg", "math", "br", "img", "hr",
          "input", "textarea", "title", "script", "iframe", "label", "fieldset", "main", "nav"]
TEXT = ("x", "y z", " ", "\n", "t", "&amp;", "é", "w")

Placed = dict  # number -> (parent number or None, text)


def document(r: random.Random, tokens: int) -> str:
    parts = ["<!DOCTYPE html>"] if r.random() < 0.8 else []
    n = 0
    for _ in range(tokens):
        k = r.random()
        tag = r.choice(FORMATTING) if r.random() < 0.5 else r.choice(OTHERS)
        if k < 0.45:
            parts.append(f"<{tag} data-n={n}>")
            n += 1
        elif k < 0.75:
            parts.append(f"</{tag}>")
        else:
            parts.append(r.choice(TEXT))
    return "".join(parts)


def collapse(text: str) -> str:
    return " ".join(text.split())


def placed(elements) -> Placed:
    """elements: (number or None, parent, text, clone) in tree order, the parent an
    index into elements or None. clone says whether the element is a clone; None
    when the parser cannot tell, and then the first element with a number is its
    start tag's (not always: a clone fostered before a table comes before the
    original it copies, in a cell of that table)."""
    out: Placed = {}
    origin: list[int | None] = []    # the number of each element that is no clone
    for n, parent, text, clone in elements:
        first = n is not None and (not clone if clone is not None else n not in out)
        origin.append(n if first else None)
        up = parent
        while up is not None and origin[up] is None:
            up = elements[up][1]
        if first:
            out[n] = (origin[up] if up is not None else None, collapse(text))
    return out


def number(value) -> int | None:
    return int(value) if value is not None and re.fullmatch(r"\d+", value) else None


def fastparse_placed(data: str) -> Placed:
    doc = fastparse.parse(data)
    tags = list(doc.find_all())
    index = {t.index: k for k, t in enumerate(tags)}
    elements = []
    for t in tags:
        p = t.parent
        elements.append((number(t.get("data-n")), index.get(p.index) if p else None, t.text, False))
    return placed(elements)


def lexbor_placed(data: str) -> Placed:
    from selectolax.lexbor import LexborHTMLParser
    root = LexborHTMLParser(data).root
    elements, index = [], {}
    for node in root.traverse(include_text=False):
        if node.tag.startswith("-") or node.tag == "#comment":
            continue
        index[node.mem_id] = len(elements)
        parent = node.parent
        elements.append((number(node.attributes.get("data-n")),
                         index.get(parent.mem_id) if parent is not None else None,
                         node.text(deep=True), None))
    return placed(elements)


def html5lib_placed(data: str) -> Placed:
    """html5lib's tree, each clone known: its tree builder's cloneNode is wrapped to
    mark the copy with an attribute (the reconstruction of active formatting elements
    inserts a new element with a clone's attributes, so it carries the mark too)"""
    import html5lib
    builder = html5lib.getTreeBuilder("etree")
    clone_node = builder.elementClass.cloneNode

    def marked_clone(self):
        element = clone_node(self)
        element._element.set("data-clone", "")
        return element
    builder.elementClass.cloneNode = marked_clone
    try:
        root = html5lib.HTMLParser(tree=builder, namespaceHTMLElements=False).parse(data)
    finally:
        builder.elementClass.cloneNode = clone_node
    elements: list = []

    def walk(el, parent):
        if not isinstance(el.tag, str):
            return                                    # a comment
        here = len(elements)
        elements.append((number(el.get("data-n")), parent, "".join(el.itertext()),
                         el.get("data-clone") is not None))
        for child in el:
            walk(child, here)
    walk(root, None)
    return placed(elements)


def disagreements(ours: Placed, theirs: Placed) -> list[str]:
    out = []
    for n in sorted(set(ours) | set(theirs)):
        if n not in theirs:
            out.append(f"{n}: only in fastparse")
        elif n not in ours:
            out.append(f"{n}: missing")
        elif ours[n][0] != theirs[n][0]:
            out.append(f"{n}: parent {ours[n][0]} (theirs {theirs[n][0]})")
        elif ours[n][1] != theirs[n][1]:
            out.append(f"{n}: text {ours[n][1]!r} (theirs {theirs[n][1]!r})")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--tokens", type=int, default=20)
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args()
    found = 0
    for seed in range(args.seed, args.seed + args.count):
        data = document(random.Random(seed), args.tokens)
        ours = fastparse_placed(data)
        diffs = [disagreements(ours, ref(data)) for ref in (lexbor_placed, html5lib_placed)]
        if not all(diffs):
            continue
        found += 1
        if found <= args.show:
            print(f"seed {seed}: {data!r}")
            for name, d in zip(("lexbor:  ", "html5lib:"), diffs):
                print(f"  {name} {'; '.join(d[:4])}")
    print(f"{found} of {args.count} documents differ from both references")
    return 0


if __name__ == "__main__":
    sys.exit(main())
