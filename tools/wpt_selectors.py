"""web-platform-tests' Selectors API suite, run through fastparse.

    python tools/wpt_selectors.py WPT_DIR [--show 30]

WPT_DIR is a checkout of web-platform-tests (github.com/web-platform-tests/wpt); nothing of
it is in this repository. Its dom/nodes/selectors.js lists invalid selectors (each must
raise SelectorError) and valid ones with the ids they match, in tree order, in
dom/nodes/ParentNode-querySelector-All-content.html. The browser test appends elements to
that page before it queries it (ParentNode-querySelector-All.html and .js); this tool
writes the same elements as markup, then runs every selector meant for querySelectorAll in
the four contexts the suite has:

* document: `doc.select(css)` (and `select_one`, which must be the first of them);
* element:  `root.select(css)` on the page's #root, after a copy of #root whose elements
  all carry `data-clone` has been appended to the body (none of them may match);
* detached: #root cloned out of the document, here its markup parsed as a fragment;
* fragment: a document fragment holding such a clone, here the same parse.

Then each valid selector marked for matches() is run through `tag.matches(css)` on every
element it must match, as Element-matches.html does.

Cases that need what markup cannot write are left out, each with its reason: elements the
script creates in no namespace or in a made-up one (markup makes them HTML elements), and
:target, whose page is loaded with a #target fragment the parser never sees.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import fastparse as fp

TEST_QSA, TEST_MATCH_BASELINE, TEST_MATCH_ADDITIONAL = 0x01, 0x10, 0x20


# --- reading selectors.js: the JavaScript literals the suite writes -------------------------

_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class _JsReader:
    """A reader for the subset of JavaScript that selectors.js spells its data in: arrays,
    object literals with bare keys, strings in either quote, numbers, and constants joined
    with `|` (the test-type flags)."""

    def __init__(self, text: str, constants: dict[str, int]):
        self.text, self.pos, self.constants = text, 0, constants

    def skip_space(self) -> None:
        text = self.text
        while self.pos < len(text):
            if text[self.pos].isspace():
                self.pos += 1
            elif text.startswith("//", self.pos):
                self.pos = text.find("\n", self.pos) % (len(text) + 1)
            elif text.startswith("/*", self.pos):
                self.pos = text.index("*/", self.pos) + 2
            else:
                return

    def value(self):
        self.skip_space()
        c = self.text[self.pos]
        if c == "[":
            return self.sequence("]", self.value)
        if c == "{":
            return dict(self.sequence("}", self.member))
        if c in "\"'":
            return self.string()
        return self.flags()

    def sequence(self, close: str, item):
        self.pos += 1
        items = []
        while True:
            self.skip_space()
            if self.text[self.pos] == close:
                self.pos += 1
                return items
            items.append(item())
            self.skip_space()
            if self.text[self.pos] == ",":
                self.pos += 1

    def member(self):
        self.skip_space()
        key = re.compile(r"[A-Za-z_$][\w$]*").match(self.text, self.pos)
        if key is None:
            raise ValueError(f"object key expected at {self.pos}: {self.text[self.pos:self.pos + 40]!r}")
        self.pos = key.end()
        self.skip_space()
        if self.text[self.pos] != ":":
            raise ValueError(f"':' expected at {self.pos}")
        self.pos += 1
        return key.group(), self.value()

    def string(self) -> str:
        quote, out = self.text[self.pos], []
        self.pos += 1
        while (c := self.text[self.pos]) != quote:
            self.pos += 1
            if c != "\\":
                out.append(c)
                continue
            c = self.text[self.pos]
            self.pos += 1
            if c in "xu":
                width = 2 if c == "x" else 4
                out.append(chr(int(self.text[self.pos:self.pos + width], 16)))
                self.pos += width
            elif c == "\n":
                pass  # a line continuation
            else:
                out.append(_JS_ESCAPES.get(c, c))  # any other escaped character is itself
        self.pos += 1
        return "".join(out)

    def flags(self) -> int:
        total = 0
        while True:
            self.skip_space()
            word = re.compile(r"[\w$]+").match(self.text, self.pos)
            if word is None:
                raise ValueError(f"value expected at {self.pos}: {self.text[self.pos:self.pos + 40]!r}")
            self.pos = word.end()
            token = word.group()
            total |= int(token, 0) if token[0].isdigit() else self.constants[token]
            self.skip_space()
            if self.text[self.pos] != "|":
                return total
            self.pos += 1


def read_selectors_js(path: Path) -> dict[str, list]:
    """The arrays selectors.js assigns to `var NAME = [...]`, by name."""
    text = path.read_text(encoding="utf-8")
    constants = {m.group(1): int(m.group(2), 0)
                 for m in re.finditer(r"^var\s+(\w+)\s*=\s*(0x[0-9A-Fa-f]+|\d+)\s*;", text, re.MULTILINE)}
    arrays = {}
    for m in re.finditer(r"^var\s+(\w+)\s*=\s*\[", text, re.MULTILINE):
        reader = _JsReader(text, constants)
        reader.pos = m.end() - 1
        arrays[m.group(1)] = reader.value()
    return arrays


# --- the page as the test script leaves it ----------------------------------------------------

def _special_elements() -> str:
    """setupSpecialElements() as markup: <null>, <undefined> and the namespace test's divs
    (the third and fourth of each are made in no namespace and in a made-up one, which markup
    cannot do: here they are HTML divs, and the cases that tell them apart are left out)."""
    def group(name: str) -> str:
        divs = "".join(f'<div id="{name}-div{i}"></div>' for i in range(1, 5))
        return f'<div id="{name}">{divs}</div>'
    return "<null></null><undefined></undefined>" + group("any-namespace") + group("no-namespace")


def _as_clones(markup: str) -> str:
    """Every start tag of markup given a data-clone attribute (the element context's copy)."""
    return re.sub(r"<([A-Za-z][^\s/>]*)", r'<\1 data-clone=""', markup)


def build_pages(content: str) -> dict[str, str]:
    """The markup each context queries: the content page with #root holding the special
    elements, plus the empty <div> verifyStaticList() appends in each context."""
    start = content.index('<div id="root">')
    end = content.rindex("</div>", start, content.index("</body>"))
    root = content[start:end] + _special_elements() + "</div>"  # as cloned: before any static div
    live = content[:start] + root[:-len("</div>")] + "<div></div></div>" + content[end + len("</div>"):]
    before_body_end = live.index("</body>")
    document = live[:before_body_end] + "<div></div>" + live[before_body_end:]
    element = document[:before_body_end] + "<div></div>" + _as_clones(root) + live[before_body_end:]
    return {
        "document": document,
        "element": element,
        "detached": root[:-len("</div>")] + "<div></div></div>",
        "fragment": root + "<div></div>",
    }


def query_roots(pages: dict[str, str]) -> dict[str, object]:
    """What each context calls select() on."""
    element = fp.parse(pages["element"])
    detached = fp.parse_fragment(pages["detached"], "body")
    return {
        "document": fp.parse(pages["document"]),
        "element": element.find(id="root"),
        "detached": detached.find(id="root"),
        "fragment": fp.parse_fragment(pages["fragment"], "body"),
    }


# --- what fastparse answers differently on purpose -------------------------------------------

# elements the script makes in no namespace or in a made-up one; markup makes HTML elements
SCRIPT_NAMESPACED = {f"{group}-namespace-div{i}" for group in ("any", "no") for i in (3, 4)}
PSEUDO_ELEMENT = re.compile(r"::|:(before|after|first-line|first-letter)\b", re.IGNORECASE)


def intended(kind: str, case: dict, problem: str) -> str | None:
    """Why a difference is one fastparse means to have (README, "CSS selectors"), or None."""
    css = case["selector"]
    if PSEUDO_ELEMENT.search(css):
        return "a pseudo-element raises SelectorError: it never matches an element (browsers return none)"
    if ":target" in css:
        return ":target: the page is loaded with #target, a URL a parser never sees"
    if kind.startswith("invalid/") and re.search(r"(^|\s)&\s", css):
        return "CSS Nesting 1 made '&' valid outside a nested rule (it is :scope), as in browsers now"
    if kind.startswith("invalid/") and css.lstrip().startswith(">"):
        return "a leading combinator is relative to the element select() is called on (tag.select('> li'))"
    if ">>" in css:
        return "'>>' was a draft descendant combinator, dropped from Selectors 4; older copies of the suite test it"
    if ":empty" in css and "pseudo-empty-p3" in problem:
        return ":empty ignores white space, as Selectors 4 and soupsieve define it (browsers do not yet)"
    if ":link" in css and "pseudo-link-link" in problem:
        return ":link is a[href] and area[href]: the HTML Standard no longer counts <link> (nor does Chrome)"
    if css == ":root" and kind.endswith("/fragment"):
        return "a fragment's :root is its first top-level element (README: no implied elements)"
    if "attr-presence-i1" in problem:
        return "an attribute the script sets in a made-up namespace (setAttributeNS), which markup cannot write"
    named = set(re.findall(r"[\w-]*-namespace-div\d", problem))
    if named and named <= SCRIPT_NAMESPACED:
        return "an element the script makes outside the HTML namespace, which markup cannot write"
    return None


# --- running the cases ----------------------------------------------------------------------

def _applies(case: dict, context: str) -> bool:
    exclude = case.get("exclude", [])
    return context not in exclude and "html" not in exclude


def _ids(tags) -> list:
    return [t.get("id") for t in tags]


def run_valid(case: dict, context: str, root) -> str | None:
    """None when fastparse answers as the suite expects, else what differs."""
    css, expect = case["selector"], case["expect"]
    try:
        found = root.select(css)
        first = root.select_one(css)
    except fp.SelectorError as exc:
        return f"raised {exc}"
    if _ids(found) != expect:
        return f"select gave {_ids(found)}, expected {expect}"
    if any(t.get("data-clone") is not None for t in found):
        return "select matched an element outside the context (a data-clone copy)"
    if (first is fp.MISSING) != (not found) or (found and first != found[0]):
        return f"select_one gave {first!r}, select's first is {found[:1]}"
    return None


def run_matches(case: dict, doc) -> str | None:
    """Element-matches' check: each expected element matches. For a case querySelectorAll
    also runs, whose list is complete, widened: every other element must not match."""
    css, expect = case["selector"], case["expect"]
    complete = bool(case["testType"] & TEST_QSA)
    wrong = []
    for tag in doc:
        want = tag.get("id") in expect
        if not want and not complete:
            continue
        try:
            if tag.matches(css) != want:
                wrong.append(f"{tag.name}#{tag.get('id')} {'not ' if want else ''}matched")
        except fp.SelectorError as exc:
            return f"raised {exc}"
    return "; ".join(wrong[:4]) + (f" (+{len(wrong) - 4})" if len(wrong) > 4 else "") if wrong else None


def run_invalid(case: dict, root) -> str | None:
    try:
        root.select(case["selector"])
    except fp.SelectorError:
        return None
    except Exception as exc:  # noqa: BLE001 - the suite's point: which exception
        return f"raised {type(exc).__name__}: {exc}"
    return "accepted"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("wpt", type=Path, help="a web-platform-tests checkout")
    ap.add_argument("--show", type=int, default=30)
    args = ap.parse_args()
    nodes = args.wpt / "dom" / "nodes"
    arrays = read_selectors_js(nodes / "selectors.js")
    roots = query_roots(build_pages((nodes / "ParentNode-querySelector-All-content.html").read_text("utf-8")))

    failures, counts, reasons = [], {}, {}
    def record(kind: str, case: dict, problem: str | None) -> None:
        why = intended(kind, case, problem) if problem else None
        agree, meant, total = counts.get(kind, (0, 0, 0))
        counts[kind] = (agree + (problem is None), meant + (why is not None), total + 1)
        if why:
            reasons.setdefault(why, set()).add(case["selector"])
        elif problem:
            failures.append((kind, case.get("name", ""), case["selector"], problem))

    for case in arrays["invalidSelectors"]:
        for context, root in roots.items():
            record(f"invalid/{context}", case, run_invalid(case, root))
    for case in arrays["validSelectors"]:
        if case["testType"] & TEST_QSA:
            for context, root in roots.items():
                if _applies(case, context):
                    record(f"valid/{context}", case, run_valid(case, context, root))
        if case["testType"] & (TEST_QSA | TEST_MATCH_BASELINE | TEST_MATCH_ADDITIONAL) and _applies(case, "document"):
            record("matches/document", case, run_matches(case, roots["document"]))

    for kind, (agree, meant, total) in counts.items():
        print(f"{kind:18} {total:4} cases: {agree:4} as the suite expects, {meant:3} intended differences,"
              f" {total - agree - meant:3} other")
    print("\nIntended differences, by reason (selectors):")
    for why, selectors in reasons.items():
        print(f"  {why}: {len(selectors)}")
    for kind, name, css, problem in failures[:args.show]:
        print(f"\n[{kind}] {name}\n  {css!r}\n  {problem}")


if __name__ == "__main__":
    main()
