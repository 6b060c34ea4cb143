"""The neutral tree every parser is reduced to, and how two of them are spliced and scored
(see the package docstring for the rules)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .suites import TreeCase, collapse_ws


@dataclass
class NeutralTree:
    """Elements in the parser's order with parent links, and the document's text."""
    names: list[str] = field(default_factory=list)
    parents: list[int] = field(default_factory=list)  # index into names, -1: top level
    text: str = ""


def tree_from_events(events: Iterator[tuple]) -> NeutralTree:
    """Build a tree from ("start", name) / ("end",) / ("text", s) events."""
    tree = NeutralTree()
    stack: list[int] = []
    texts: list[str] = []
    for ev in events:
        kind = ev[0]
        if kind == "start":
            tree.parents.append(stack[-1] if stack else -1)
            stack.append(len(tree.names))
            tree.names.append(ev[1].lower())
        elif kind == "end":
            stack.pop()
        elif ev[1]:
            texts.append(ev[1])
    tree.text = "".join(texts)
    return tree


def local_name(name: str) -> str:
    """'svg foreignObject' -> 'foreignobject'; '{ns}path' -> 'path'."""
    if name.startswith("{"):
        name = name[name.index("}") + 1:]
    return name.rsplit(" ", 1)[-1].lower()


_ATTR_LINE = re.compile(r'^(?:(?:xlink|xml|xmlns) )?[^\s"][^\s=]*="')


def expected_tree(case: TreeCase) -> NeutralTree:
    """The #document dump as a neutral tree (template 'content' is transparent)."""
    tree = NeutralTree()
    texts: list[str] = []
    # stack of (dump depth, element index or None for 'content' / non-elements)
    stack: list[tuple[int, int | None]] = []
    prev_element_depth = -2           # depth of the element whose attributes may follow
    for line in case.document:
        body = line[2:]
        depth = (len(body) - len(body.lstrip(" "))) // 2
        node = body[depth * 2:]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        parent = next((i for _, i in reversed(stack) if i is not None), -1)
        if depth == prev_element_depth + 1 and _ATTR_LINE.match(node) and node.endswith('"'):
            continue                  # an attribute of the element just read
        prev_element_depth = -2
        if node.startswith(("<!-- ", "<!DOCTYPE", "<?")):
            continue
        if node.startswith('"') and node.endswith('"') and len(node) >= 2:
            texts.append(node[1:-1])
        elif node == "content":
            stack.append((depth, None))
        elif node.startswith("<") and node.endswith(">"):
            stack.append((depth, len(tree.names)))
            tree.parents.append(parent)
            tree.names.append(local_name(node[1:-1]))
            prev_element_depth = depth
        else:
            raise ValueError(f"{case.id}: cannot read dump line {line!r}")
    tree.text = "".join(texts)
    return tree


# ---------------------------------------------------------------------------
# Splicing and scoring
# ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=65536)
def has_start_tag(data: str, name: str) -> bool:
    """True when '<name' followed by a tag-name terminator occurs in data (any case)."""
    return re.search(start_tag_pattern(name), data, re.IGNORECASE) is not None


def start_tag_pattern(name: str) -> str:
    # a NUL in a tag name becomes U+FFFD: either spelling is that start tag
    return "<" + re.escape(name).replace("\ufffd", "[\0\ufffd]") + r"(?=[\t\n\f\r />]|$)"


@dataclass
class Spliced:
    outline: list[tuple[int, str]]   # (depth, name) in the tree's order
    parent_of: dict[tuple[str, int], str | None]  # (name, k) -> nearest kept ancestor name


def splice(tree: NeutralTree, keep: Callable[[str], bool]) -> Spliced:
    """Drop elements whose name keep() rejects; children move up to the kept ancestor."""
    kept_parent: list[int] = []     # nearest kept ancestor index (or -1) of each element
    depth: list[int] = []           # depth among kept elements, for kept ones
    outline: list[tuple[int, str]] = []
    parent_of: dict[tuple[str, int], str | None] = {}
    seen: Counter = Counter()
    is_kept = [keep(n) for n in tree.names]
    for i, name in enumerate(tree.names):
        p = tree.parents[i]
        # parents always precede children in both document and tree order
        anc = p if p < 0 or is_kept[p] else kept_parent[p]
        kept_parent.append(anc)
        d = 0 if anc < 0 else depth[anc] + 1
        depth.append(d)
        if is_kept[i]:
            outline.append((d, name))
            parent_of[(name, seen[name])] = None if anc < 0 else tree.names[anc]
            seen[name] += 1
    return Spliced(outline, parent_of)


@dataclass
class CaseScore:
    exact: bool
    parent: float
    text: bool


def score(case: TreeCase, expected: NeutralTree, actual: NeutralTree) -> CaseScore:
    """The three issue-3 metrics for one case."""
    def keep(name: str) -> bool:
        return has_start_tag(case.data, name)
    exp, act = splice(expected, keep), splice(actual, keep)
    if exp.parent_of:
        agree = sum(1 for k, p in exp.parent_of.items()
                    if k in act.parent_of and act.parent_of[k] == p)
        parent = agree / len(exp.parent_of)
    else:
        parent = 1.0
    return CaseScore(exp.outline == act.outline, parent,
                     collapse_ws(expected.text) == collapse_ws(actual.text))


def spliced_outline(case: TreeCase, tree: NeutralTree) -> list[tuple[int, str]]:
    """The (depth, name) list after splicing, for failure reports."""
    return splice(tree, lambda n: has_start_tag(case.data, n)).outline


def format_outline(outline: list[tuple[int, str]]) -> str:
    """Compact nesting, children in parentheses: [(0,'ul'),(1,'li'),(0,'p')] -> 'ul(li),p'."""
    out: list[str] = []
    prev = -1
    for d, name in outline:
        if prev >= 0:
            if d > prev:
                out.append("(" * (d - prev))
            else:
                out.append(")" * (prev - d) + ",")
        out.append(name)
        prev = d
    out.append(")" * max(prev, 0))
    return "".join(out)


def outline_of(tree: NeutralTree, data: str | None = None) -> str:
    """format_outline of a tree, spliced against data's start tags when data is given."""
    if data is None:
        return format_outline(splice(tree, lambda n: True).outline)
    return format_outline(splice(tree, lambda n: has_start_tag(data, n)).outline)
