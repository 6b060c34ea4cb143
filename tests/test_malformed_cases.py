"""The hand-written malformed snippets (../shared/corpora/malformed/cases.json, issue 3).

For every non-pathological case: the nesting the HTML Standard builds, as a compact outline
(children in parentheses, implied elements without a start tag left out), and the nesting
fastparse must report. They are the same except where the spec clones an element or builds
one from a start tag it ignores (DIFFERENCES, each with its reason): fastparse never
inserts an element that has no start tag of its own and never clones.
SPEC is checked against a spec parser when one is installed, so the expectations here are
the Standard's, not ours.

Pathological cases (prefix + html * repeat + suffix) must parse in linear time: the best of
3 runs at size N and 2N, ratio <= 2.3 (spec parsers go quadratic on deep nesting); the
measurement is repeated up to 3 times when a busy machine spoils it.
"""

import json
import os
import time

import pytest

import fastparse as fp
from fastparse import conformance as C

if not C.MALFORMED_CASES.exists():
    pytest.skip(f"malformed corpus not found at {C.MALFORMED_CASES}", allow_module_level=True)

CASES = {c["id"]: c for c in json.loads(C.MALFORMED_CASES.read_text(encoding="utf-8"))}
PATHOLOGICAL = [i for i, c in CASES.items() if c["category"] == "pathological"]
DEPTH = 65535          # the largest max_depth: 20,000 nested <div> must nest, not raise

# What the Standard builds, spliced (no implied html/head/body/tbody).
SPEC = {
    "li-unclosed": "ul(li,li,li),p",
    "p-closed-by-block": "p,div,p,ul(li)",
    "td-tr-unclosed": "table(tr(td,td),tr(td))",
    "option-unclosed": "select(option,option,optgroup(option))",
    "dt-dd": "dl(dt,dd,dt,dd)",
    "stray-end-tags": "div,p",
    "misnested-b-i": "p(b(i),i)",
    "misnested-b-p": "b,p(b)",
    "unquoted-attr-gt": "a,img",
    "attr-value-with-p": "a,p",
    "lt-in-text": "p(b)",
    "unclosed-comment": "p",
    "unclosed-script": "script",
    "missing-gt-at-eof": "div",
    "nested-a": "a,a",
    "table-stray-text": "table(tr(td))",
    "table-no-tr": "table(tr(td))",
    "duplicate-attrs": "div",
    "nul-bytes": "p,di\ufffdv",
    "uppercase-tags": "div(p),br",
    "self-closing-div": "div(span)",
    "br-end-tag": "br,br,br",
    "tags-in-title-textarea": "title,textarea,p",
    "heading-in-heading": "h1,h2",
    "p-table-quirks": "p(table(tr(td)))",
    "content-after-html": "html(body(p,p))",
    "form-in-form": "form(input,input),input",
}

# Where fastparse's nesting differs from SPEC, and why.
DIFFERENCES = {
    "misnested-b-i": ("p(b(i))", ("adoption agency: the spec clones <i> after </b>; "
                                  "fastparse keeps the one real <i>, 'italic' belongs to <p>")),
    "misnested-b-p": ("b,p", ("adoption agency: the spec moves <p> out of <b> and clones <b> "
                              "into it; fastparse moves <p> the same way but does not clone")),
    "table-no-tr": ("table(td)", ("the spec's <tr> is implied (the only <tr> start tag, after "
                                  "</table>, is ignored); fastparse inserts no element")),
}

# Text (DOM textContent of the document) where the case is about text.
TEXT = {
    "unquoted-attr-gt": "linkb>text",
    "attr-value-with-p": "linkreal",
    "lt-in-text": "1 < 2 and 3 <4 and a",
    "unclosed-comment": "before",
    "unclosed-script": 'var x = "<p>";<p>not a para',
    "missing-gt-at-eof": "text",
    "nul-bytes": "abc",
    "tags-in-title-textarea": "A <b>bold</b> title<p>x</p>y",
}

# Attributes of the first element of a name, where the case is about attributes.
ATTRS = {
    "unquoted-attr-gt": {"a": {"href": "/x?a=1&b=2"}, "img": {"src": "foo.png", "alt": "a"}},
    "attr-value-with-p": {"a": {"title": "<p>not a tag</p>", "href": "x"}},
    "lt-in-text": {"b": {"c<": "", "p": ""}},
    "duplicate-attrs": {"div": {"id": "a", "class": "x"}},
    "uppercase-tags": {"div": {"class": "X"}},
    "form-in-form": {"form": {"id": "1"}},
}


def test_every_case_has_an_expectation():
    nested = {i for i, c in CASES.items() if c["category"] != "pathological"}
    assert nested == set(SPEC)
    assert set(DIFFERENCES) <= set(SPEC)


def _fastparse_outline(html: str) -> str:
    return C.outline_of(C.fastparse_neutral(fp.parse(html)))


@pytest.mark.parametrize("case_id", sorted(SPEC))
def test_fastparse_nesting(case_id):
    expected = DIFFERENCES.get(case_id, (SPEC[case_id],))[0]
    assert _fastparse_outline(CASES[case_id]["html"]) == expected, CASES[case_id]["note"]


@pytest.mark.parametrize("case_id", sorted(TEXT))
def test_fastparse_text(case_id):
    assert fp.parse(CASES[case_id]["html"]).text == TEXT[case_id], CASES[case_id]["note"]


@pytest.mark.parametrize("case_id", sorted(ATTRS))
def test_fastparse_attributes(case_id):
    doc = fp.parse(CASES[case_id]["html"])
    for name, attrs in ATTRS[case_id].items():
        assert doc.find(name).attrs == attrs, CASES[case_id]["note"]


@pytest.mark.parametrize("case_id", sorted(SPEC))
def test_spec_expectations_match_a_spec_parser(case_id):
    pytest.importorskip("selectolax.lexbor", reason="selectolax checks the SPEC outlines")
    html = CASES[case_id]["html"]
    tree = C.selectolax_tree(C.TreeCase("cases.json", 0, html, []))
    assert C.outline_of(tree, html) == SPEC[case_id]


def _source(case: dict, scale: int = 1) -> str:
    return case.get("prefix", "") + case["html"] * (case["repeat"] * scale) + case.get("suffix", "")


def _timed(source: str, loops: int) -> float:
    # CPU time of this process (page faults included): time other processes hold the core
    # does not count, as in tests/test_pathological.py
    t0 = time.process_time()
    for _ in range(loops):
        fp.parse(source, max_depth=DEPTH)
    return time.process_time() - t0


def _growth_ratio(small: str, large: str, loops: int) -> float:
    """min time(large) / min time(small), best of 3 runs each, interleaved so that a load
    change on the machine hits both sizes alike."""
    t_small, t_large = [], []
    for _ in range(3):
        t_small.append(_timed(small, loops))
        t_large.append(_timed(large, loops))
    return min(t_large) / min(t_small)


# NOTE: the input is quadrupled, not doubled. A quadratic parser takes 16x the time
# then, a linear one 4x, and up to ~7x where the bigger input's index no longer fits a
# cache level (deep-div-10k: 10,000 elements fit a 512 KB L2, 40,000 do not; doubling
# measured 3.2x on such a machine, consistently). 9x keeps both verdicts clear.
GROWTH, LIMIT = 4, 9.0


@pytest.mark.parametrize("case_id", PATHOLOGICAL)
def test_pathological_case_parses_in_linear_time(case_id):
    case = CASES[case_id]
    small, large = _source(case), _source(case, GROWTH)
    if os.environ.get("FASTPARSE_SANITIZER_RUN") == "1":
        # under AddressSanitizer the allocator's quarantine, not the parser, sets the times:
        # parse both sizes (memory errors), assert nothing about speed (tools/sanitizer_tests.sh)
        fp.parse(small, max_depth=DEPTH)
        fp.parse(large, max_depth=DEPTH)
        return
    _timed(small, 1)
    _timed(large, 1)                                  # warm-up (allocator, page cache)
    # enough loops that one run of the small input takes ~50 ms: timer noise is then
    # small next to the ratio checked
    loops = max(1, int(0.05 / max(_timed(small, 1), 1e-6)))
    # a shared machine can stall one run; a quadratic parser fails every attempt (ratio 16)
    ratios = []
    for _ in range(3):
        ratios.append(_growth_ratio(small, large, loops))
        if ratios[-1] <= LIMIT:
            break
    assert min(ratios) <= LIMIT, f"{case_id}: {GROWTH}x the input took {ratios}x the time"


def test_pathological_shapes():
    """The structure each pathological case must have (limits raised)."""
    def doc(case_id):
        return fp.parse(_source(CASES[case_id]), max_depth=DEPTH)

    deep = doc("deep-div-10k")
    assert len(deep) == 10_000 and max(t.depth for t in deep) == 9_999
    many_p = doc("many-p-100k")
    assert len(many_p) == 100_000 and all(t.depth == 0 for t in many_p)
    nested_a = doc("nested-a-10k")          # each <a> closes the previous one
    assert len(nested_a) == 10_000 and all(t.depth == 0 for t in nested_a)
    bold = doc("unclosed-b-10k")
    assert len(bold) == 10_000 and max(t.depth for t in bold) == 9_999
    cells = doc("td-50k")
    assert [t.name for t in list(cells)[:2]] == ["table", "tr"]
    assert len(cells) == 50_002 and all(t.parent.name == "tr" for t in list(cells)[2:])
