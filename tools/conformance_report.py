"""Print the html5lib-tests conformance tables for every installed parser.

    python tools/conformance_report.py                      # tree construction, all parsers
    python tools/conformance_report.py -p fastparse --failures 3   # + worst categories
    python tools/conformance_report.py -p fastparse --failures 3 --by-area
    python tools/conformance_report.py --tokenizer -p fastparse
    python tools/conformance_report.py -p fastparse --write-baseline  # tests/tree_baseline.json
    python tools/conformance_report.py -p fastparse --tree-dir WPT/html/syntax/parsing/resources

html5lib-tests keeps the tokenizer tests; its tree-construction tests now live in
web-platform-tests (html/syntax/parsing/resources/*.dat), where the HTML Standard's later
changes land (processing instructions, 2026). --tree-dir runs the .dat files of a folder
(a WPT checkout's) instead of ../shared/corpora's copy; --write-baseline needs the copy.

The metrics and the adapters live in fastparse/conformance/ (its docstring says how
each figure is computed); this script only runs them and prints.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

# run from a checkout without installing: the repository root first on the path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
C = importlib.import_module("fastparse.conformance")

BASELINE = C.REPO_ROOT / "tests" / "tree_baseline.json"


def first_divergence(case: C.TreeCase, actual: C.NeutralTree) -> str:
    """A category for a miss: the first (depth, name) where the outlines part, or 'text'."""
    exp = C.spliced_outline(case, C.expected_tree(case))
    act = C.spliced_outline(case, actual)
    for i in range(max(len(exp), len(act))):
        e = exp[i] if i < len(exp) else None
        a = act[i] if i < len(act) else None
        if e != a:
            if e and a and e[1] == a[1]:
                return f"<{e[1]}> nested at the wrong depth"
            if e is None:
                return f"extra <{a[1]}>"
            if a is None or e[1] not in {n for _, n in act[i:]}:
                return f"missing <{e[1]}>"
            return f"<{e[1]}> out of place"
    return "text differs"


_AREAS = [  # (area, data test) in priority order; the first that matches names the miss
    ("template contents", lambda d: "<template" in d),
    ("frameset / frame", lambda d: "<frame" in d),
    ("select rules", lambda d: "<select" in d or "<option" in d or "<optgroup" in d),
    ("foreign content (svg / math)", lambda d: "<svg" in d or "<math" in d),
    ("tables (foster parenting, table modes)", lambda d: "<table" in d or "<t" in d),
    ("html / head / body tags", lambda d: "<html" in d or "<head" in d or "<body" in d),
]


def area_of(case: C.TreeCase, exact: bool) -> str:
    """A coarse area for a miss, to decide what to fix first."""
    if exact:
        return "text only"
    if case.context is not None:
        return f"fragment context ({case.context.split()[0] if ' ' in case.context else 'html'})"
    data = case.data.lower()
    return next((area for area, test in _AREAS if test(data)), "other")


def show_failures(name: str, results: list[C.CaseResult], per_category: int,
                  by_area: bool = False) -> None:
    adapter = C.TREE_ADAPTERS[name]
    groups: dict[str, list[C.TreeCase]] = defaultdict(list)
    for r in results:
        if r.score is None or (r.score.exact and r.score.text):
            continue
        if r.error:
            groups[f"raises {r.error.split(':')[0]}"].append(r.case)
            continue
        actual = adapter(r.case)
        reason = C.explained_miss(r.case, actual) if not r.score.exact else None
        if reason:
            short = reason.split(":")[0] if by_area else reason.split(" (")[0]
            key = f"expected difference, {short}"
        elif by_area:
            key = area_of(r.case, r.score.exact)
        else:
            key = first_divergence(r.case, actual)
        groups[key].append(r.case)
    print(f"\n{name}: failing cases by category (worst first)")
    for key, group in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n  {len(group):4}  {key}")
        for case in sorted(group, key=lambda c: len(c.data))[:per_category]:
            actual = adapter(case)
            expected = C.expected_tree(case)
            ctx = f" (context {case.context})" if case.context else ""
            print(f"        {case.id}{ctx}: {case.data!r}")
            print(f"          spec:  {C.outline_of(expected, case.data)}   "
                  f"text {C.collapse_ws(expected.text)!r}")
            print(f"          {name}: {C.outline_of(actual, case.data)}   "
                  f"text {C.collapse_ws(actual.text)!r}")


def tree_report(names: list[str], failures: int, write_baseline: bool,
                by_area: bool = False, tree_dir: Path | None = None) -> None:
    cases = C.read_tree_cases(tree_dir) if tree_dir else C.read_tree_cases()
    if not cases:
        sys.exit(f"no tree-construction cases (*.dat) in {tree_dir or C.TREE_DIR}")
    summary = []
    for name in names:
        t0 = time.perf_counter()
        results = C.run_tree_suite(C.TREE_ADAPTERS[name], cases)
        elapsed = time.perf_counter() - t0
        print(C.format_table(results, f"\n== {name} ({elapsed:.1f} s)"))
        reasons = Counter(r.skipped for r in results if r.skipped)
        for reason, n in reasons.most_common():
            print(f"   skipped {n}: {reason}")
        f = C.figures(results)
        rest = C.figures([r for r in results if not C.expected_difference(r.case)])
        summary.append((name, f))
        summary.append(("  w/o clone cases", rest))
        if failures:
            show_failures(name, results, failures, by_area)
        if write_baseline and name == "fastparse":
            # rounded down to 0.1 percentage point, so float noise never fails the test
            base = {k: math.floor(getattr(f, k) * 1000) / 1000 for k in ("exact", "parent", "text")}
            BASELINE.write_text(json.dumps(base, indent=2) + "\n")
            print(f"wrote {BASELINE}: {base}")
    print(f"\n{'parser':<18} {'cases':>5} {'skip':>4} {'exact%':>7} {'parent%':>8} {'text%':>6}")
    for name, f in summary:
        print(f"{name:<18} {f.cases:>5} {f.skipped:>4} {100 * f.exact:>7.1f} "
              f"{100 * f.parent:>8.2f} {100 * f.text:>6.1f}")


def tokenizer_report(names: list[str], failures: int) -> None:
    tests = C.read_tokenizer_tests()
    for name in names:
        view = C.TOKEN_VIEWS.get(name)
        if view is None:
            continue
        per_file: dict[str, Counter] = defaultdict(Counter)
        excluded: Counter = Counter()
        failed = []
        for test in tests:
            try:
                problems = C.tokenizer_check(test, view)
            except C.Skip as exc:
                per_file[test.file]["excluded"] += 1
                excluded[str(exc)] += 1
                continue
            except Exception as exc:  # noqa: BLE001 - report, keep going
                problems = [f"raised {type(exc).__name__}: {exc}"]
            per_file[test.file]["fail" if problems else "pass"] += 1
            if problems:
                failed.append((test, problems))
        print(f"\n== {name}: tokenizer suite")
        print(f"{'file':<30} {'pass':>5} {'fail':>5} {'excl':>5}")
        for file, c in sorted(per_file.items()):
            print(f"{file:<30} {c['pass']:>5} {c['fail']:>5} {c['excluded']:>5}")
        total = sum(per_file.values(), Counter())
        print(f"{'TOTAL':<30} {total['pass']:>5} {total['fail']:>5} {total['excluded']:>5}")
        for reason, n in excluded.most_common():
            print(f"   excluded {n}: {reason}")
        for test, problems in sorted(failed, key=lambda tp: len(tp[0].input))[:failures]:
            print(f"   FAIL {test.id}: input {test.input!r}")
            for problem in problems:
                print(f"        {problem}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-p", "--parser", action="append",
                    help="parser name (repeatable); default: every installed one")
    ap.add_argument("--tokenizer", action="store_true", help="run the tokenizer suite instead")
    ap.add_argument("--failures", type=int, default=0, metavar="N",
                    help="print the failing categories with N shortest inputs each")
    ap.add_argument("--by-area", action="store_true",
                    help="group failures by area (tables, template...) instead of element")
    ap.add_argument("--write-baseline", action="store_true",
                    help="write fastparse's figures to tests/tree_baseline.json")
    ap.add_argument("--tree-dir", type=Path, metavar="DIR",
                    help="the tree-construction .dat files to run (default: ../shared/corpora's copy)")
    args = ap.parse_args()
    if args.tree_dir and args.write_baseline:
        sys.exit("--write-baseline compares with the suite's copy in ../shared/corpora: drop --tree-dir")
    installed = C.installed_tree_adapters()
    names = args.parser or list(installed)
    for name in names:
        if name not in installed:
            sys.exit(f"{name}: not installed (known: {', '.join(C.TREE_ADAPTERS)})")
    if args.tokenizer:
        tokenizer_report(names, args.failures)
    else:
        tree_report(names, args.failures, args.write_baseline, args.by_area, args.tree_dir)


if __name__ == "__main__":
    main()
