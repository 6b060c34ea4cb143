"""tools/cssselect_suite.py reads cssselect's selection tests without running them; the
suite is not in this repository, so these tests give the tool a test file of their own."""
import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "cssselect_suite", Path(__file__).resolve().parent.parent / "tools" / "cssselect_suite.py")
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)

TEST_FILE = '''
class TestCssselect:
    def test_select(self) -> None:
        def pcss(main, *selectors, **kwargs):
            return []
        all_ids = pcss("*")
        assert all_ids[:1] == ["html"]          # not a call compared with a literal
        assert pcss("li", "ol > li") == ["a", "b"]
        assert pcss("LI", html_only=True) == ["a", "b"]
        assert pcss("li:empty") == []
        assert pcss("li.wrong") == ["a"]
        assert pcss(":heading") == ["a"]

    def test_select_shakespeare(self) -> None:
        def count(selector):
            return 0
        assert count("*") == 4
        assert count("body") == 1


HTML_IDS = """<html id="html"><body><ol id="o"><li id="a">x</li><li id="b"> </li></ol></body></html>"""
HTML_SHAKESPEARE = """<body><div><p>a</p><p>b</p></div></body>"""
'''


def test_reads_the_pages_and_each_selector_of_an_asserted_call():
    pages, cases = suite.read_suite(TEST_FILE)
    assert set(pages) == {"HTML_IDS", "HTML_SHAKESPEARE"}
    assert [(c.page, c.css, c.expected) for c in cases] == [
        ("HTML_IDS", "li", ["a", "b"]), ("HTML_IDS", "ol > li", ["a", "b"]),
        ("HTML_IDS", "LI", ["a", "b"]), ("HTML_IDS", "li:empty", []), ("HTML_IDS", "li.wrong", ["a"]),
        ("HTML_IDS", ":heading", ["a"]),
        ("HTML_SHAKESPEARE", "*", 4), ("HTML_SHAKESPEARE", "body", 1)]


def test_sorts_answers_into_agree_shared_with_soupsieve_and_differ(tmp_path):
    pytest.importorskip("soupsieve")
    pytest.importorskip("html5lib")
    pages, cases = suite.read_suite(TEST_FILE)
    out = suite.run(pages, cases)
    # a count takes <body> itself, as cssselect's descendant-or-self XPath does
    assert [c.css for c in out["agree"]] == ["li", "ol > li", "LI", "*", "body"]
    # whitespace-only content is :empty (Selectors 4) here and for soupsieve, not for cssselect
    # and an expectation neither meets is cssselect's own
    assert [(c.css, got, ref) for c, got, ref in out["html"]] == [("li:empty", ["b"], ["b"]), ("li.wrong", [], [])]
    # a difference soupsieve does not share (here, a selector it rejects) is left as one
    assert [(c.css, got, ref) for c, got, ref in out["differ"]] == [(":heading", [], None)]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_cssselect.py").write_text(TEST_FILE, encoding="utf-8")
    assert suite.main([str(tmp_path)]) == 1   # the exit status says so

