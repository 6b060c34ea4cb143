"""fastparse's parse against its peers in one process (docs/benchmark-history.md, "one process").

    python tools/peers_one_process.py [--rounds 5] [--task parse|css] [--corpus-dir DIR]

fastparse, the memchr floor, selectolax, turbohtml and lxml (those installed) parse every real
page in turn, round after round, alternating the order; each keeps its best time per page (wall
clock). Printed: each peer's time / fastparse's at the median page, and fastparse's / the
floor's. The benchmark (python -m fastparse.bench) runs each parser in a worker process of its
own and times CPU; this puts every parser in the same machine phase, page by page, which the
shared machines' 10-30% swings between runs otherwise decide (README, "Committed results").
--task css times the benchmark's css task instead (parse, then the 20 selectors of
fastparse.bench.tasks.CSS_SELECTORS, each parser through its benchmark adapter) for
fastparse, selectolax and turbohtml.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ab_builds import best_times  # tools/: the same timing loop as the A/B of two commits

import fastparse as fp
from fastparse import _core, corpora


def peers() -> dict:
    found = {"fastparse": fp.parse, "floor (memchr)": _core.floor_scan}
    try:
        from selectolax.lexbor import LexborHTMLParser
        found["selectolax"] = LexborHTMLParser
    except ImportError:
        pass
    try:
        import turbohtml
        found["turbohtml"] = lambda data: turbohtml.parse(data, positions=False)
    except ImportError:
        pass
    try:
        import lxml.html
        found["lxml"] = lxml.html.document_fromstring
    except ImportError:
        pass
    return found


def css_peers() -> dict:
    """The css task of the benchmark's adapters that import (fastparse first)."""
    from fastparse.bench import adapters, tasks
    found, _ = adapters.available(("fastparse", "selectolax", "turbohtml"))
    return {name: tasks.timed_call("css", adapter, {}) for name, adapter in found.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--task", choices=["parse", "css"], default="parse")
    ap.add_argument("--corpus-dir", default=None)
    args = ap.parse_args(argv)
    pages = [p.read() for p in corpora.real_pages(args.corpus_dir)]
    if args.task == "css":
        return css_main(pages, args.rounds)
    parsers = peers()
    names = list(parsers)
    # fastparse and the floor make ten times the calls of the DOM parsers
    times = best_times([parsers[k] for k in names], pages, args.rounds, [1, 1] + [10] * (len(names) - 2))
    best = dict(zip(names, times))
    mine = best["fastparse"]
    print(f"{len(pages)} real pages, best of {args.rounds} rounds, median over pages")
    print(f"  fastparse / floor (memchr): {statistics.median(a / b for a, b in zip(mine, best['floor (memchr)'])):.2f}")
    for k in names[2:]:
        print(f"  {k} / fastparse: {statistics.median(b / a for a, b in zip(mine, best[k])):.2f}")
    return 0


def css_main(pages: list[bytes], rounds: int) -> int:
    tasks = css_peers()
    names = list(tasks)
    times = dict(zip(names, best_times([tasks[k] for k in names], pages, rounds, [1] + [10] * (len(names) - 1))))
    mine = times["fastparse"]
    print(f"{len(pages)} real pages, css task, best of {rounds} rounds, median over pages")
    for k in names[1:]:
        print(f"  {k} / fastparse: {statistics.median(b / a for a, b in zip(mine, times[k])):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
