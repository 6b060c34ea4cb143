"""html5lib-tests tree construction, measured as issue 3 asks (fastparse/conformance/).

Every case of ../shared/corpora/html5lib-tests/tree-construction/*.dat runs through
fastparse (fragments through parse_fragment, #script-on cases with scripting=True); the
test prints the per-file table and the overall figures (run with -s to see them) and fails
when an overall figure falls below tests/tree_baseline.json. Raise the baseline as the
simulator improves (tools/conformance_report.py --write-baseline).
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from fastparse import conformance as C

BASELINE = Path(__file__).with_name("tree_baseline.json")

if not C.TREE_DIR.exists():
    pytest.skip(f"html5lib-tests not found at {C.TREE_DIR}", allow_module_level=True)


@pytest.fixture(scope="module")
def cases():
    return C.read_tree_cases()


def test_suite_is_complete(cases):
    assert len(cases) >= 1700
    for case in cases:
        C.expected_tree(case)      # every dump line is understood


def test_tree_construction_meets_baseline(cases):
    import fastparse  # noqa: F401 - fail here, not as 1792 misses, when the build is broken

    results = C.run_tree_suite(C.fastparse_tree, cases)
    print()
    print(C.format_table(results, "fastparse, html5lib-tests tree construction"))
    skipped = [r for r in results if r.skipped]
    for reason in sorted({r.skipped for r in skipped}):
        print(f"skipped {sum(r.skipped == reason for r in skipped)}: {reason}")
    crashed = [r for r in results if r.error]
    for r in crashed[:10]:
        print(f"crashed {r.case.id}: {r.error}")
    explained = Counter()
    for r in results:
        if r.score and not r.score.exact:
            why = C.explained_miss(r.case, C.fastparse_tree(r.case))
            explained[why.split(":")[0] if why else "unexplained"] += 1
    print("non-exact cases by cause (clone/reorder are expected differences):",
          dict(explained))
    text_misses = Counter()
    for r in results:
        if r.score and not r.score.text:
            why = C.explained_text_miss(r.case, C.fastparse_tree(r.case))
            text_misses[why.split(":")[0] if why else "unexplained"] += 1
    print("text misses by cause:", dict(text_misses))
    rest = C.figures([r for r in results if not C.expected_difference(r.case)])
    print(f"without the {len(results) - rest.cases - rest.skipped} cases where the spec "
          f"clones: exact {100 * rest.exact:.1f}%  parent {100 * rest.parent:.2f}%  "
          f"text {100 * rest.text:.1f}%")

    got = C.figures(results)
    base = json.loads(BASELINE.read_text())
    assert not crashed, f"{len(crashed)} cases raised, first: {crashed[0].error}"
    assert got.exact >= base["exact"], f"exact {got.exact:.4f} < baseline {base['exact']}"
    assert got.parent >= base["parent"], f"parent {got.parent:.4f} < baseline {base['parent']}"
    assert got.text >= base["text"], f"text {got.text:.4f} < baseline {base['text']}"


def test_depth_agrees_with_parent(cases):
    """The adapter reads tag.parent; tag.depth must tell the same story."""
    import fastparse as fp

    bad = []
    for case in cases:
        doc = (fp.parse(case.data) if case.context is None
               else fp.parse_fragment(case.data, context=case.context))
        for tag in doc:
            parent = tag.parent
            if tag.depth != (parent.depth + 1 if parent else 0):
                bad.append(f"{case.id} <{tag.name}> depth {tag.depth}")
                break
    assert not bad, bad[:10]


def test_harness_scores_a_spec_parser_at_100_percent(cases):
    """A conforming parser must score 100% on all three: the harness itself is right."""
    pytest.importorskip("selectolax.lexbor", reason="selectolax is the reference parser")
    got = C.figures(C.run_tree_suite(C.selectolax_tree, cases))
    assert (got.exact, got.parent, got.text) == (1.0, 1.0, 1.0)


def test_splice_and_scores_on_a_known_case():
    case = C.TreeCase("inline", 1, "<p>One<p>Two", [
        "| <html>", "|   <head>", "|   <body>", "|     <p>", '|       "One"',
        "|     <p>", '|       "Two"'])
    expected = C.expected_tree(case)
    assert C.outline_of(expected, case.data) == "p,p"
    nested = C.NeutralTree(["p", "p"], [-1, 0], "OneTwo")    # a parser that nests <p>
    s = C.score(case, expected, nested)
    assert (s.exact, s.parent, s.text) == (False, 0.5, True)
