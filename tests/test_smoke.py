"""Smoke tests of the engine build: the compiled extension is the one imported,
and a small document parses into the expected index."""
import pathlib

import fastparse as fp
from fastparse import _core


def test_extension_is_compiled_from_this_tree():
    path = pathlib.Path(_core.__file__)
    assert path.suffix in (".so", ".pyd")
    assert path.resolve().parent == pathlib.Path(fp.__file__).resolve().parent
    assert fp.SCAN_IMPL in ("sse2", "neon", "portable")


def test_small_document_structure():
    doc = fp.parse(b"<html><head><title>Hi &amp; you</title></head><body>"
                   b"<ul><li>a<li>b</ul><p>x<div id=m class='a b'>y</div></body></html>")
    outline = [(t.name, t.depth, t.closed_by) for t in doc]
    assert outline == [
        ("html", 0, "end-tag"), ("head", 1, "end-tag"), ("title", 2, "end-tag"),
        ("body", 1, "end-tag"), ("ul", 2, "end-tag"), ("li", 3, "implied"),
        ("li", 3, "parent-end"), ("p", 2, "implied"), ("div", 2, "end-tag"),
    ]
    assert doc.text == "Hi & youabxy"
    assert doc.find("div").attrs == {"id": "m", "class": "a b"}
    assert doc.find(cls="b").id == "m"
