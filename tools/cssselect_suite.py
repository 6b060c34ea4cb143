"""cssselect's selection tests, run through fastparse; soupsieve settles each difference.

    python tools/cssselect_suite.py CSSSELECT_SDIST_DIR [--show 20]

CSSSELECT_SDIST_DIR is an unpacked cssselect source distribution (`pip download --no-binary
:all: --no-deps cssselect`, then untar): its tests/test_cssselect.py is not in this
repository. The tool reads two of its tests without running them:
  test_select            `assert pcss(css, ...) == [ids]` over the page HTML_IDS: the ids
                         the selectors match, in document order;
  test_select_shakespeare `assert count(css) == n` over HTML_SHAKESPEARE: how many
                         elements match, <body> and those below it (cssselect's
                         XPath starts at descendant-or-self).
Each selector then runs on fastparse's parse of the same page. cssselect reads HTML_IDS as
XML, compares attribute values as written and has rules of its own (`:link` takes <link
href>); where fastparse's answer differs, soupsieve runs the selector on html5lib's tree of
the page (the HTML Standard's) and a difference it shares is counted apart, as the HTML
reading of the page. What is left is printed and makes the exit status 1.
"""
from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fastparse as fp


class Case(NamedTuple):
    page: str        # HTML_IDS or HTML_SHAKESPEARE
    css: str
    expected: object  # the ids (HTML_IDS) or the count from <body> down (HTML_SHAKESPEARE)


def read_suite(source: str) -> tuple[dict[str, str], list[Case]]:
    """The pages (module-level string constants) and the cases of test_select and
    test_select_shakespeare, from the text of test_cssselect.py."""
    tree = ast.parse(source)
    pages = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            pages[node.targets[0].id] = node.value.value
    cases = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in ("test_select", "test_select_shakespeare"):
            cases += _asserted_calls(fn, "pcss" if fn.name == "test_select" else "count",
                                     "HTML_IDS" if fn.name == "test_select" else "HTML_SHAKESPEARE")
    return pages, cases


def _asserted_calls(fn: ast.FunctionDef, helper: str, page: str) -> list[Case]:
    """`assert helper(css, ...) == literal`: one case for each selector of the call."""
    cases = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare)
                and isinstance(node.test.ops[0], ast.Eq)):
            continue
        call = node.test.left
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == helper):
            continue
        try:
            expected = ast.literal_eval(node.test.comparators[0])
        except ValueError:
            continue   # compared with something computed: not a case
        for arg in call.args:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                cases.append(Case(page, arg.value, expected))
    return cases


def fastparse_answer(doc, case: Case) -> object:
    if case.page == "HTML_SHAKESPEARE":
        body = doc.find("body")
        return len(body.select(case.css)) + body.matches(case.css)
    return [t.get("id") or "nil" for t in doc.select(case.css)]


def soupsieve_answer(markup: str, case: Case) -> object:
    """The same question to soupsieve over html5lib's tree; None when it cannot answer."""
    try:
        import bs4
        import soupsieve
        soup = bs4.BeautifulSoup(markup, "html5lib")
        if case.page == "HTML_SHAKESPEARE":
            return len(soupsieve.select(case.css, soup.body)) + soupsieve.match(case.css, soup.body)
        return [t.get("id", "nil") for t in soupsieve.select(case.css, soup)]
    except Exception:   # noqa: BLE001  (a selector soupsieve rejects, or no bs4/html5lib here)
        return None


def run(pages: dict[str, str], cases: list[Case]) -> dict[str, list]:
    """Cases sorted into agree, html (fastparse and soupsieve agree against cssselect) and
    differ (each with fastparse's answer and soupsieve's)."""
    docs = {name: fp.parse(pages[name]) for name in {c.page for c in cases}}
    out: dict[str, list] = {"agree": [], "html": [], "differ": []}
    for case in cases:
        try:
            got = fastparse_answer(docs[case.page], case)
        except fp.SelectorError as exc:
            got = f"SelectorError: {exc.args[0].splitlines()[0]}"
        if got == case.expected:
            out["agree"].append(case)
            continue
        ref = soupsieve_answer(pages[case.page], case)
        out["html" if ref == got else "differ"].append((case, got, ref))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sdist", type=Path)
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args(argv)
    pages, cases = read_suite((args.sdist / "tests" / "test_cssselect.py").read_text(encoding="utf-8"))
    out = run(pages, cases)
    print(f"{len(cases)} cases: {len(out['agree'])} agree with cssselect, {len(out['html'])} differ as "
          f"soupsieve on html5lib's tree does, {len(out['differ'])} differ")
    for title, rows in (("as soupsieve", out["html"]), ("differ", out["differ"])):
        for case, got, ref in rows[:args.show]:
            print(f"  {title}: {case.css!r} cssselect {case.expected}, fastparse {got}, soupsieve {ref}")
    return 1 if out["differ"] else 0


if __name__ == "__main__":
    sys.exit(main())
