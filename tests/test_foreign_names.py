"""The names SVG and MathML elements and attributes get (fastparse/_foreign_names.py):
Tag.name and Tag.attrs show the DOM's camel case, and selectors match such names as
written (HTML Standard 4.16.2), on HTML elements ASCII-case-insensitively."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import fastparse as fp
from fastparse._foreign_names import MATHML_ATTRIBUTE_NAMES, SVG_ATTRIBUTE_NAMES, SVG_TAG_NAMES
from fastparse.conformance import read_dat

TESTS11 = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "html5lib-tests" / \
    "tree-construction" / "tests11.dat"
IMPLIED = {"html", "head", "body"}


def test_the_tables_are_html5lib_s_with_the_standard_s_later_changes():
    html5lib_constants = pytest.importorskip("html5lib.constants")
    # html5lib 1.1 predates feDropShadow and still adjusts four attributes the Standard dropped
    dropped = {"contentscripttype", "contentstyletype", "externalresourcesrequired", "filterres"}
    theirs = {k: v for k, v in html5lib_constants.adjustSVGAttributes.items() if k not in dropped}
    assert SVG_ATTRIBUTE_NAMES == theirs
    assert MATHML_ATTRIBUTE_NAMES == html5lib_constants.adjustMathMLAttributes
    assert all(k == v.lower() and k != v for table in (SVG_TAG_NAMES, SVG_ATTRIBUTE_NAMES) for k, v in table.items())


def test_names_are_those_lexbor_gives():
    lexbor = pytest.importorskip("selectolax.lexbor")
    tags = "".join(f"<{name.upper()} {' '.join(a.upper() + '=1' for a in SVG_ATTRIBUTE_NAMES)} />"
                   for name in [*SVG_TAG_NAMES, "rect"])
    page = (f"<svg>{tags}</svg><math DEFINITIONURL=1 viewbox=1><mi definitionurl=2/></math>"
            "<div viewBox=1 definitionURL=2></div><clipPath></clipPath>")
    mine = [(t.name, t.attrs) for t in fp.parse(page)]
    theirs = [(node.tag, node.attributes) for node in lexbor.LexborHTMLParser(page).body.traverse(include_text=False)
              if node.tag != "body"]
    assert mine == theirs
    assert ("clipPath", {v: "1" for v in SVG_ATTRIBUTE_NAMES.values()}) in mine
    assert mine[-2:] == [("div", {"viewbox": "1", "definitionurl": "2"}), ("clippath", {})]   # HTML elements


def _dump_elements(lines: list[str]) -> list[tuple[str, dict[str, str]]]:
    """(name, attrs) of each element of an html5lib-tests #document dump, in order."""
    out: list[tuple[str, dict[str, str]]] = []
    for line in lines:
        body = line[2:].lstrip(" ")
        element = re.fullmatch(r"<(?:svg |math )?([^\s>!]+)>", body)
        attribute = re.fullmatch(r'(?:(xlink|xml|xmlns) )?([^\s=]+)="(.*)"', body)
        if element:
            out.append((element[1], {}))
        elif attribute and out:
            out[-1][1][f"{attribute[1]}:{attribute[2]}" if attribute[1] else attribute[2]] = attribute[3]
    return [e for e in out if e[0] not in IMPLIED]


@pytest.mark.skipif(not TESTS11.exists(), reason="../shared/corpora/html5lib-tests is absent")
def test_tree_construction_suite_tests11_names_exactly():
    # the suite's file about these tables: every SVG attribute and tag name, written in
    # camel case, lower case and upper case, on <svg> and <math>
    cases = read_dat(TESTS11)
    assert len(cases) == 13
    for case in cases:
        doc = fp.parse(case.data)
        mine = [(t.name, t.attrs) for t in doc if t.name not in IMPLIED]
        assert mine == _dump_elements(case.document), case.id


SELECTOR_PAGE = """<div id=d CLASS=c viewbox=1 definitionurl=2>
<svg id=s viewBox="0 0 9 9" class=c definitionURL=3><clipPath id=cp clipPathUnits=u><rect id=r CLASS=c /></clipPath>
<foreignObject id=fo><p id=p viewBox=1 class=c></p></foreignObject><linearGradient id=lg /></svg>
<math id=m definitionURL=x class=c><mi id=mi viewBox=1 CLASS=c></mi><clippath id=mcp /></math>
<clippath id=hcp></clippath><lineargradient id=hlg></lineargradient></div>"""

SELECTORS = ["[viewBox]", "[viewbox]", "[VIEWBOX]", "[definitionURL]", "[definitionurl]", "[class]", "[CLASS]",
             "[Class=c]", "[clipPathUnits]", "[clippathunits]", "clipPath", "clippath", "CLIPPATH", "ClipPath",
             "foreignObject", "foreignobject", "linearGradient", "lineargradient", "svg", "SVG", "math", "MATH",
             "rect", "RECT", "mi", "MI", "p", "P", "div", "DIV", ":not([VIEWBOX])", "[viewBox!='1']",
             ":is(clipPath, mi)[CLASS]", "svg > :is(clipPath)", "clipPath rect", "[*|viewBox]", "[*|class]",
             "svg [class]:not(clipPath)", ":has(> clipPath)", ":nth-child(1 of [viewBox])"]


@pytest.mark.parametrize("css", SELECTORS)
def test_selectors_match_names_as_written_on_svg_and_mathml_elements(css):
    soupsieve = pytest.importorskip("soupsieve")
    if tuple(int(x) for x in soupsieve.__version__.split(".")[:3]) < (4, 1, 4):
        pytest.skip("soupsieve matches names as written on SVG and MathML elements since 4.1.4")
    bs4 = pytest.importorskip("bs4")
    pytest.importorskip("html5lib")
    soup = bs4.BeautifulSoup(SELECTOR_PAGE, "html5lib")   # namespaced elements, adjusted names
    theirs = [el.get("id") for el in soup.select(css) if el.get("id")]
    mine = [t.id for t in fp.parse(SELECTOR_PAGE).select(css)]
    assert mine == theirs
    doc = fp.parse(SELECTOR_PAGE)
    assert [t.id for t in doc if t.matches(css)] == mine
