"""Random selectors on random trees: fastparse's matches against soupsieve's.

    python tools/random_select_diff.py [--seed 0] [--count 300] [--per-tree 10] [--show 20] [--wide 4]

Each tree is a random nest of elements with classes (case variants, an escaped-digit
one), ids, attributes whose values hold spaces, quotes, hyphens, '&' and non-ASCII (written
double-quoted, single-quoted or unquoted, characters often spelt as references, which a select
must decode before it compares), comments and whitespace-only text (some spelt as references:
`&#32;` is white space to :empty), now and then an <svg> or
<math> subtree whose names the DOM writes in camel case (clipPath, viewBox, definitionURL),
spelt in any case, and in which a <template> is an ordinary element with children. Each
selector comes from a grammar over what issue 4 lists: type and universal selectors (SVG
and MathML names in every case too), `#id`, `.class` (CSS escapes included), attribute
selectors with every operator, the `i`/`s` flags, quoted and unquoted
values, odd spacing, `:nth-*(An+B [of S])` with signs and spaces, the child-indexed and state pseudo-classes, `:not() :is() :where()
:has()` (relative), `:contains()`, the four combinators with and without spaces, lists.
fastparse runs on the document, soupsieve on its BeautifulSoup mirror (the mirror of
tests/test_select_differential.py: the same elements, so a difference is the engines').
Each selector is also run from a random element: `tag.select`, `tag.matches`,
`tag.closest` against soupsieve's `select`, `match`, `closest` on the mirrored element.

Left out, as documented intended differences: nested `:has()` (an error here, Selectors 4
4.5), quirks-mode documents (class and id ignore case here), tables (foster-parented
content is matched inside its table here; the mirror cannot hold it), and the cases
tests/test_select_differential.py excuses (`:root` of a document with several top-level
elements: the first one here, none in soupsieve). A selector one engine
rejects and the other accepts is counted apart: fastparse forgives what does not parse
inside `:is()`/`:where()` (Selectors 4, 4.3.5), soupsieve raises.

Result at 2026-12 (soupsieve 4.1.3): seeds 1-4, 300-400 trees x 10 selectors each (15,000
selectors, each also run from one element), no difference. With values written in every style
(df4003a's raw compares): seeds 1-6, 400 trees each (24,000 selectors), no difference; a build
that compared a '&' as a plain byte differed once in each of seeds 1 and 2. Since 2026-12-04
values also hold a line feed (written as CR, CRLF, LF or a reference) and U+FFFD (a raw NUL):
seed 33000, 600 trees, no difference. The build before that day, which compared such values
as raw bytes, also passed 1,500 trees: a long random compound seldom turns on one value.
tests/test_select.py (test_values_that_decoding_changes_match_as_get_reads_them) is the check
that caught it. --wide 120 (up to 120 top-level elements: a `~` walk past 32 siblings is
memoised in a select, never in matches or closest), seed 34100, 300 trees: no difference; a
build whose memo stored a wrong answer differed in 8 of the 3,000 selectors. Since
2026-12-05 an SVG or MathML <template> holds children: seed 81000, 400 trees, no difference;
the build before that day's fix, which left them out as an HTML template's contents, 7 of
4,000. With the x86-64-v3 copy of the engine (58714c8): seed 4401, 600 trees, no difference.
"""
from __future__ import annotations

import argparse
import random
import sys
import warnings
from pathlib import Path

import soupsieve

import fastparse as fp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from test_select_differential import mirror, same_tree_exceptions, soupsieve_select

TAGS = ["div", "p", "span", "a", "ul", "li", "b", "em", "section", "input", "img", "br", "option",
        "dl", "dt", "dd", "h2"]
VOID = {"input", "img", "br"}
CLASSES = ["a", "b", "A", "c-d", "e_f", "1x"]
IDS = ["i0", "I0", "i1", "1a"]
ATTRS = ["data-x", "DATA-X", "title", "lang", "type", "href"]
VALUES = ["v", "vw", "w v", "V", "", "v-w", "é", "a b  c", "-", 'x"y', "v&w", "http://h/v", "x'y", "v\nw", "v\ufffdw"]
TEXTS = ["", "", " ", "t", "x y", "<!-- c -->", "\n", "T", "&#32;", " &Tab;"]
# SVG and MathML subtrees: names the DOM writes in camel case (clipPath, viewBox,
# definitionURL), spelt in any case, which selectors match as written there
FOREIGN_TAGS = {"svg": ["clipPath", "CLIPPATH", "rect", "linearGradient", "g", "foreignObject", "template"],
                "math": ["mi", "MI", "mrow", "clippath", "template"]}
FOREIGN_ATTRS = ["viewBox", "VIEWBOX", "viewbox", "definitionURL", "definitionurl", "class", "CLASS", "data-x",
                 "clipPathUnits"]
SELECTOR_TAGS = ["svg", "SVG", "clipPath", "clippath", "CLIPPATH", "rect", "RECT", "math", "mi", "MI",
                 "foreignObject", "linearGradient", "template"]
SELECTOR_ATTRS = ["viewBox", "viewbox", "VIEWBOX", "definitionURL", "definitionurl", "CLASS", "clipPathUnits"]


# characters a value may spell as references, or as raw bytes that read as them (a CR
# or CRLF as a line feed, a NUL as U+FFFD): what a select must decode before comparing
REFERENCES = {"v": ["&#118;", "&#x76;"], "-": ["&#45;", "&hyphen;"], "é": ["&eacute;", "&#233;"],
              "&": ["&amp;", "&#38;"], "h": ["&#104;"], "\n": ["\r\n", "\r", "&#10;"],
              "\ufffd": ["\0", "&#0;", "&#xFFFD;"]}


def written(r: random.Random, v: str) -> str:
    """Attribute value v as markup: double-quoted, single-quoted or unquoted (where it can
    be), with a character now and then spelt as a reference; a '&' always is one."""
    out = "".join(r.choice(REFERENCES[c]) if c in REFERENCES and (c == "&" or r.random() < 0.5) else c
                  for c in v)
    quote = r.choice(['"', "'", ""])
    if not quote and (not out or any(c in out for c in " \t\n\f\r\"'=<>`")):
        quote = '"'
    return quote + out.replace(quote, "&quot;" if quote == '"' else "&#39;") + quote if quote else out


def foreign_tree(r: random.Random, root: str, depth: int) -> str:
    """<svg> or <math> with a few children; a foreignObject holds HTML again."""
    out = []
    for _ in range(r.randint(0, 3)):
        tag = r.choice(FOREIGN_TAGS[root])
        attrs = "".join(f" {r.choice(FOREIGN_ATTRS)}={written(r, r.choice(VALUES))}" for _ in range(r.randint(0, 2)))
        if tag == "foreignObject":
            inner = random_tree(r, depth + 1)
        elif tag == "template" and depth < 4:   # an ordinary element there: its children are the document's
            inner = foreign_tree(r, root, depth + 1)
        else:
            inner = r.choice(TEXTS)
        out.append(f"<{tag}{attrs}>{inner}</{tag}>")
    attrs = f" {r.choice(FOREIGN_ATTRS)}={written(r, r.choice(VALUES))}" if r.random() < 0.5 else ""
    return f"<{root}{attrs}>{''.join(out)}</{root}>"


def random_tree(r: random.Random, depth: int = 0, wide: int = 4) -> str:
    """A nest of up to 4 children per element, 3 levels deep; up to `wide` at the top."""
    out = []
    for _ in range(r.randint(0, wide if depth == 0 else 4 if depth < 3 else 0)):
        if r.random() < 0.06:
            out.append(foreign_tree(r, r.choice(["svg", "math"]), depth))
            continue
        tag = r.choice(TAGS)
        attrs = ""
        if r.random() < 0.5:
            attrs += ' class="' + " ".join(r.sample(CLASSES, r.randint(1, 2))) + '"'
        if r.random() < 0.3:
            attrs += f' id="{r.choice(IDS + ["x:y"])}"'
        if r.random() < 0.4:
            attrs += f" {r.choice(ATTRS)}={written(r, r.choice(VALUES))}"
        if r.random() < 0.1:
            attrs += " hidden"
        text = r.choice(TEXTS)
        inner = "" if tag in VOID else random_tree(r, depth + 1) + f"</{tag}>"
        out.append(f"<{tag}{attrs}>{text}{inner}")
    return "".join(out)


class SelectorGrammar:
    def __init__(self, r: random.Random):
        self.r = r
        self.in_has = False

    def ident(self, name: str) -> str:
        """name as written after '.' or '#': a leading digit escaped, sometimes the first letter too."""
        if name[0].isdigit():
            return f"\\3{name[0]} {name[1:]}"
        return f"\\{ord(name[0]):x} {name[1:]}" if self.r.random() < 0.2 else name

    def value(self, v: str) -> str:
        quote = self.r.choice(['"', "'", ""])
        if not quote and not (v and v[0].isalpha() and all(c.isalnum() or c in "-_" for c in v)):
            quote = '"'
        escaped = v.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\a ")
        return quote + escaped + quote if quote else v

    def nth(self, depth: int) -> str:
        r = self.r
        a = r.choice(["", "2n", "-n", "n", "3n", "-2n", "0n", "2N", "+n"])
        b = r.choice(["", "+1", "-1", "+ 1", " - 2", "+0"]) if a else r.choice(["1", "2", "3", "-1", "0", "+2"])
        arg = r.choice([a + b, a + b, "odd", "even", "ODD"]).strip() or "1"
        if r.random() < 0.15 and depth < 2:
            return f":{r.choice(['nth-child', 'nth-last-child'])}({arg} of {self.compound(depth + 1)})"
        fn = r.choice(["nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"])
        pad = r.choice(["", " "])
        return f":{fn}({pad}{arg}{pad})"

    def simple(self, depth: int) -> str:
        r = self.r
        k = r.random()
        if k < 0.15:
            return "." + self.ident(r.choice(CLASSES))
        if k < 0.22:
            return "#" + self.ident(r.choice(IDS))
        if k < 0.45:
            name = r.choice(ATTRS + ["class", "id", "hidden"] + SELECTOR_ATTRS[:r.randint(0, 7)])
            if r.random() < 0.25:
                return f"[{name}]"
            op = r.choice(["=", "~=", "|=", "^=", "$=", "*="])
            pad = r.choice(["", " "])
            flag = r.choice(["", "", " i", " s", " I"])
            value = self.value(r.choice(VALUES + ["a", "b", "A"]))
            return f"[{pad}{name}{pad}{op}{pad}{value}{flag}{pad}]"
        if k < 0.65:
            return self.nth(depth)
        if k < 0.75:
            return ":" + r.choice(["first-child", "last-child", "only-child", "first-of-type", "last-of-type",
                                   "only-of-type", "empty", "root", "checked", "disabled", "enabled", "link",
                                   "any-link", "defined", "FIRST-CHILD"])
        if k < 0.95 and depth < 2:
            fn = r.choice(["not", "is", "where", "has", "not"])
            if fn == "has" and not self.in_has:
                self.in_has = True
                try:
                    return f":has({r.choice(['', '> ', '+ ', '~ '])}{self.complex(depth + 1)})"
                finally:
                    self.in_has = False
            fn = "is" if fn == "has" else fn
            return f":{fn}({', '.join(self.complex(depth + 1) for _ in range(r.randint(1, 2)))})"
        return f":contains({self.value(r.choice(['t', 'x y', 'T', '', ' ']))})"

    def compound(self, depth: int = 0) -> str:
        tag = self.r.choice(["", "", "*", "DIV", "Li", *TAGS, *SELECTOR_TAGS[:self.r.randint(0, 12)]])
        return tag + "".join(self.simple(depth) for _ in range(self.r.randint(0 if tag else 1, 2)))

    def complex(self, depth: int = 0) -> str:
        out = self.compound(depth)
        for _ in range(self.r.randint(0, 2 if depth else 3)):
            out += self.r.choice([" ", " > ", " + ", " ~ ", ">", "+", "~", "  >  "]) + self.compound(depth)
        return out

    def selector(self) -> str:
        s = self.complex()
        return s + self.r.choice([", ", ","]) + self.complex() if self.r.random() < 0.15 else s


def quietly(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # soupsieve's :contains deprecation
        return fn(*args, flags=soupsieve.NOSTRICT)


def run(seed: int, count: int, per_tree: int, show: int, wide: int = 4) -> tuple[int, int, int]:
    r = random.Random(seed)
    grammar = SelectorGrammar(r)
    compared = differ = rejected_apart = 0
    for _ in range(count):
        page = "<!doctype html>" + random_tree(r, wide=wide)
        doc = fp.parse(page.encode())
        soup, index = mirror(doc)
        element = {index[id(el)]: el for el in soup.find_all(True)}
        for _ in range(per_tree):
            css = grammar.selector()
            try:
                ours = [t.index for t in doc.select(css)]
            except fp.SelectorError:
                ours = None
            try:
                theirs = sorted(index[id(t)] for t in soupsieve_select(css, soup))
            except soupsieve.SelectorSyntaxError:
                theirs = None
            if (ours is None) != (theirs is None):
                rejected_apart += 1
                continue
            if ours is None:
                continue
            compared += 1
            got, want = [ours], [theirs]
            if len(doc):
                t = doc[r.randrange(len(doc))]
                el = element[t.index]
                closest = t.closest(css)
                their_closest = quietly(soupsieve.closest, css, el)
                got.append(([x.index for x in t.select(css)], t.matches(css), closest.index if closest else None))
                want.append((sorted(index[id(x)] for x in quietly(soupsieve.select, css, el)),
                             quietly(soupsieve.match, css, el),
                             index[id(their_closest)] if their_closest is not None else None))
            if got != want and not same_tree_exceptions(doc, css, ours, theirs):
                differ += 1
                if differ <= show:
                    print(f"{css!r} on {page!r}:\n  fastparse {got}\n  soupsieve {want}")
    return compared, differ, rejected_apart


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=300, help="random trees")
    ap.add_argument("--per-tree", type=int, default=10, help="selectors per tree")
    ap.add_argument("--show", type=int, default=20, help="differences to print")
    ap.add_argument("--wide", type=int, default=4,
                    help="children at the top level, at most (past 32 siblings a select memoises `~` walks)")
    args = ap.parse_args()
    compared, differ, apart = run(args.seed, args.count, args.per_tree, args.show, args.wide)
    print(f"{compared} selectors compared, {differ} differ; {apart} rejected by one engine only")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
