"""Running a tree-construction suite: per-case results, the figures, their tables, and the
reasons a non-cloning, source-ordered index must differ from the spec's tree."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from .adapters import Skip
from .suites import TreeCase
from .trees import CaseScore, NeutralTree, expected_tree, has_start_tag, score, splice, start_tag_pattern


@dataclass
class CaseResult:
    case: TreeCase
    score: CaseScore | None          # None when skipped
    skipped: str | None = None       # reason
    error: str | None = None         # the parser raised: scored as a total miss


def run_tree_case(adapter: Callable[[TreeCase], NeutralTree], case: TreeCase) -> CaseResult:
    expected = expected_tree(case)
    try:
        actual = adapter(case)
    except Skip as exc:
        return CaseResult(case, None, skipped=str(exc))
    except Exception as exc:  # noqa: BLE001 - a crash is a miss, reported with its text
        return CaseResult(case, CaseScore(False, 0.0, False), error=f"{type(exc).__name__}: {exc}")
    return CaseResult(case, score(case, expected, actual))


def run_tree_suite(adapter: Callable[[TreeCase], NeutralTree],
                   cases: list[TreeCase]) -> list[CaseResult]:
    return [run_tree_case(adapter, c) for c in cases]


@dataclass
class Figures:
    cases: int        # scored cases
    skipped: int
    exact: float      # fraction
    parent: float
    text: float


def figures(results: list[CaseResult]) -> Figures:
    scored = [r.score for r in results if r.score is not None]
    n = len(scored)
    if not n:
        return Figures(0, len(results), 0.0, 0.0, 0.0)
    return Figures(n, len(results) - n,
                   sum(s.exact for s in scored) / n,
                   sum(s.parent for s in scored) / n,
                   sum(s.text for s in scored) / n)


def per_file(results: list[CaseResult]) -> dict[str, Figures]:
    groups: dict[str, list[CaseResult]] = defaultdict(list)
    for r in results:
        groups[r.case.file].append(r)
    return {f: figures(rs) for f, rs in sorted(groups.items())}


def format_table(results: list[CaseResult], title: str = "") -> str:
    """Per-.dat-file table plus the overall line, as fixed-width text."""
    rows = [f"{'file':<44} {'cases':>5} {'skip':>4} {'exact%':>7} {'parent%':>8} {'text%':>6}"]
    for name, f in per_file(results).items():
        rows.append(f"{name:<44} {f.cases:>5} {f.skipped:>4} {100 * f.exact:>7.1f} "
                    f"{100 * f.parent:>8.2f} {100 * f.text:>6.1f}")
    t = figures(results)
    rows.append(f"{'OVERALL':<44} {t.cases:>5} {t.skipped:>4} {100 * t.exact:>7.1f} "
                f"{100 * t.parent:>8.2f} {100 * t.text:>6.1f}")
    return (title + "\n" if title else "") + "\n".join(rows)


def expected_difference(case: TreeCase, expected: NeutralTree | None = None) -> str | None:
    """Why a parser that never clones or inserts cannot match this case, or None.

    A kept name with more elements in the expected tree than start tags in the data means
    the spec cloned it (adoption agency, reconstruction of active formatting elements);
    <selectedcontent> gets a clone of the selected <option>'s content (2025 select).
    expected: the reference tree, when it is not the case's own dump (another parser's).
    """
    if has_start_tag(case.data, "selectedcontent") and has_start_tag(case.data, "option"):
        return "spec clones the selected <option>'s content into <selectedcontent>"
    expected = expected or expected_tree(case)
    counts = Counter(n for n in expected.names if has_start_tag(case.data, n))
    for name, n in counts.items():
        in_source = len(re.findall(start_tag_pattern(name), case.data, re.IGNORECASE))
        if n > in_source:
            return f"spec clones <{name}> ({n} elements, {in_source} start tags)"
    return None



def explained_miss(case: TreeCase, actual: NeutralTree, expected: NeutralTree | None = None) -> str | None:
    """For a non-exact case: the reason a non-cloning, source-ordered index must differ.

    'clone' when the spec clones (expected_difference); 'reorder' when the parser has the
    same elements with the same parents, only in another order (foster parenting keeps
    fastparse's document order at the source position). None: a real miss."""
    expected = expected or expected_tree(case)
    reason = expected_difference(case, expected)
    if reason:
        return "clone: " + reason
    exp = splice(expected, lambda n: has_start_tag(case.data, n))
    act = splice(actual, lambda n: has_start_tag(case.data, n))
    if exp.parent_of == act.parent_of and exp.outline != act.outline:
        return "reorder: same parents, document order differs (foster parenting)"
    return None


def explained_text_miss(case: TreeCase, actual: NeutralTree, expected: NeutralTree | None = None) -> str | None:
    """For a text miss: 'clone' when the spec clones content (expected_difference), else
    None. (Text reads what foster parenting moved before its table, as the spec has it,
    since 2026-12-05: a text in another order is a miss.)"""
    expected = expected or expected_tree(case)
    reason = expected_difference(case, expected)
    return "clone: " + reason if reason else None
