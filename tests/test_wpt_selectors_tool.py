"""tools/wpt_selectors.py reads web-platform-tests' selector data (JavaScript literals)
and rebuilds the page the test script leaves; the suite itself is not in this repository,
so these tests give the tool JavaScript and markup of their own."""
import importlib.util
from pathlib import Path

import fastparse as fp

_spec = importlib.util.spec_from_file_location(
    "wpt_selectors", Path(__file__).resolve().parent.parent / "tools" / "wpt_selectors.py")
wpt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(wpt)


def test_reads_the_javascript_literals_the_suite_writes(tmp_path):
    source = tmp_path / "selectors.js"
    source.write_text(r'''// flags
var A = 0x01; // one
var B = 0x10;
var invalidSelectors = [
  {name: "Bad", selector: "[*=x]"},
];
/* a comment */
var validSelectors = [
	{name: "It's \"quoted\"", selector: "[data-x\_y=\"\\e9\"]", expect: [] /*none*/, level: 2, testType: A | B},
	{name: 'single', selector: 'p\u00e9', expect: ["a", "b"], exclude: ["xhtml"], testType: A},
];
''', encoding="utf-8")
    arrays = wpt.read_selectors_js(source)
    assert arrays["invalidSelectors"] == [{"name": "Bad", "selector": "[*=x]"}]
    first, second = arrays["validSelectors"]
    # JavaScript's \_ is "_", its \\ one backslash (the CSS escape stays for the selector parser)
    assert first == {"name": 'It\'s "quoted"', "selector": '[data-x_y="\\e9"]', "expect": [],
                     "level": 2, "testType": 0x11}
    assert second["selector"] == "p\u00e9" and second["exclude"] == ["xhtml"] and second["testType"] == 1


def test_rebuilds_each_context_the_script_queries():
    content = ('<!DOCTYPE html><html id="html"><body id="body">\n<div id="root">\n'
               '\t<p id="p1" class="a">x</p>\n</div>\n</body>\n</html>\n')
    pages = wpt.build_pages(content)
    roots = wpt.query_roots(pages)
    doc = roots["document"]
    assert [t.id for t in doc.select("#root > *")] == [
        "p1", None, None, "any-namespace", "no-namespace", None]   # null, undefined, ..., the static div
    assert doc.select_one("body > :last-child").name == "div" and len(doc.select("body > div")) == 2
    # the element context: a copy of #root marked data-clone follows it, outside the context
    element = roots["element"]
    assert element.id == "root" and [t.id for t in element.select(".a")] == ["p1"]
    assert len(fp.parse(pages["element"]).select("[data-clone].a")) == 1
    # detached and fragment: #root alone, the static div inside it or after it
    assert roots["detached"].select_one(":scope > div:last-child").id is None
    assert [t.id for t in roots["fragment"].children] == ["root", None]


def test_reports_a_difference_and_knows_the_intended_ones():
    doc = fp.parse('<p id="a"></p><p id="b"> </p>')
    assert wpt.run_valid({"selector": "p:empty", "expect": ["a"]}, "document", doc) is not None
    assert wpt.run_valid({"selector": "#a", "expect": ["a"]}, "document", doc) is None
    assert wpt.run_invalid({"selector": "p:nope"}, doc) is None
    assert wpt.run_invalid({"selector": "p"}, doc) == "accepted"
    case = {"selector": "p::before", "expect": []}
    assert "pseudo-element" in wpt.intended("valid/document", case, "raised ...")
    assert wpt.intended("valid/document", {"selector": "p", "expect": []}, "select gave ['x']") is None
