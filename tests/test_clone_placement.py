"""Where the elements of misnested formatting markup land, against two spec parsers
(tools/clone_tree_diff.py): each start tag carries its own number, so the elements the
spec clones are told apart from the ones the source wrote, and every element fastparse
indexes is compared by its parent (clones spliced out) and its text."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("html5lib", reason="html5lib is not installed (dev extra)")
pytest.importorskip("selectolax.lexbor", reason="selectolax is not installed (dev extra)")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import clone_tree_diff as tool


@pytest.mark.parametrize("first, tokens", [(0, 20), (10_000, 40)])
def test_elements_land_where_a_spec_parser_puts_them(first, tokens):
    differ = []
    for seed in range(first, first + 300):
        data = tool.document(random.Random(seed), tokens)
        ours = tool.fastparse_placed(data)
        diffs = [tool.disagreements(ours, ref(data)) for ref in (tool.lexbor_placed, tool.html5lib_placed)]
        if all(diffs):
            differ.append(f"seed {seed}: {data!r}: {diffs[1][:3]}")
    assert not differ, "\n".join(differ[:5])


def test_a_clone_is_told_apart_from_its_original():
    # <b> reopens as a clone in the <p> (html5lib marks it, lexbor's comes second)
    data = "<b data-n=0><p data-n=1>x</b>y"
    for ref in (tool.lexbor_placed, tool.html5lib_placed):
        assert ref(data) == {0: (None, ""), 1: (None, "xy")}
