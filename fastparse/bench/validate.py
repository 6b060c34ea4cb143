"""Output validation: a fast wrong answer is never reported.

After the first round of a task, every parser's output on every page is
compared with the reference: the generator's ground truth for generated pages
with records, else fastparse's output, else (fastparse not in the run) the
first spec parser that produced one. A mismatch fails the run, unless it is a
known, documented deviation of a peer (listed below, shown in the tables as
"wrong output", never timed). Links on real pages are scored, not failed:
HTML5 parsers legitimately add <a> elements (the adoption agency clones
them) and decode legacy pages differently; the agreement goes in the tables."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

# (parser, page id) -> why that peer's output differs; only for pages where the
# reason is the peer's parser, not our adapter.
KNOWN = {
    ("bs4-html.parser", "generated/books-no-end-li-p"):
        "html.parser applies no HTML5 implied end tags: an unclosed <p> runs on into the next one",
    ("bs4-html.parser", "generated/table-unclosed-td"):
        "html.parser applies no HTML5 implied end tags: each unclosed <td> nests the rest of the row",
}

PREFERRED_REFERENCE = ("fastparse", "selectolax", "turbohtml", "html5lib", "markupever", "resiliparse")


class ValidationError(RuntimeError):
    pass


@dataclass
class Finding:
    task: str
    page: str
    parser: str
    message: str
    known: str | None = None      # documented reason, when this is a known deviation

    def as_dict(self) -> dict:
        return self.__dict__.copy()


def _first_difference(got, want) -> str:
    if isinstance(got, list) and isinstance(want, list):
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return f"item {i}: got {_short(a)}, expected {_short(b)}"
        return f"{len(got)} items, expected {len(want)}"
    return f"got {_short(got)}, expected {_short(want)}"


def _short(x, n: int = 220) -> str:
    s = repr(x)
    return s if len(s) <= n else s[:n] + "..."


def reference(outputs: dict[str, Any], truth) -> tuple[str, Any]:
    if truth is not None:
        return "ground truth", truth
    for name in PREFERRED_REFERENCE:
        if outputs.get(name) is not None:
            return name, outputs[name]
    name = next(iter(outputs))
    return name, outputs[name]


def link_agreement(got: list, want: list) -> float:
    """Share of (href, text) pairs two parsers agree on, as multisets."""
    a, b = Counter(map(tuple, got)), Counter(map(tuple, want))
    both = sum((a & b).values())
    return both / max(sum(a.values()), sum(b.values()), 1)


def count_agreement(got: list, want: list) -> float:
    """Share of selectors two parsers find the same number of elements for."""
    return sum(a == b for a, b in zip(got, want)) / max(len(got), len(want), 1)


def check(task: str, page, outputs: dict[str, Any], truth) -> tuple[list[Finding], dict[str, float]]:
    """Findings (mismatches) and, for links and css on real pages, each parser's agreement
    (trees legitimately differ there: implied elements, clones, foster parenting)."""
    outputs = {k: v for k, v in outputs.items() if v is not None}
    if not outputs:
        return [], {}
    ref_name, ref = reference(outputs, truth)
    if task == "links" and page.origin == "real":
        return [], {p: link_agreement(out, ref) for p, out in outputs.items()}
    if task in ("css", "css-alone") and page.origin == "real":
        return [], {p: count_agreement(out, ref) for p, out in outputs.items()}
    findings = []
    for parser, out in outputs.items():
        if out != ref:
            findings.append(Finding(task, page.id, parser, f"differs from {ref_name}: "
                                    + _first_difference(out, ref), KNOWN.get((parser, page.id))))
    return findings, {}
