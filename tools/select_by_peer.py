"""Each of the css task's 20 selectors on one parsed page: fastparse's select against its peers'.

    python tools/select_by_peer.py [--page lemonde-1/source.html] [--rounds 200] [--corpus-dir DIR]

Every peer (fastparse, selectolax, turbohtml, those installed) parses the page once, through
the benchmark's adapters, then runs each selector of fastparse.bench.tasks.CSS_SELECTORS
`--rounds` times; printed: the best time of each (wall clock, microseconds) and turbohtml's /
fastparse's. The css task's totals hide which selectors a peer answers faster: a DOM keeps
attributes parsed, where fastparse reads the start tag again.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fastparse import corpora
from fastparse.bench import adapters
from fastparse.bench.tasks import CSS_SELECTORS


def best_select(adapter, doc, css: str, rounds: int) -> float:
    adapter.select(doc, css)   # a compiled-selector cache, an index: built before timing
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        len(adapter.select(doc, css))
        best = min(best, time.perf_counter() - t)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--page", default="lemonde-1/source.html", help="a manifest path, or its tail")
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--corpus-dir", default=None)
    args = ap.parse_args(argv)
    pages = [p for p in corpora.real_pages(args.corpus_dir) if p.id.endswith(args.page)]
    if not pages:
        raise SystemExit(f"no real page ends with {args.page!r}")
    data = pages[0].read()
    found, _ = adapters.available(("fastparse", "selectolax", "turbohtml"))
    times = {name: [best_select(a, a.parse(data), css, args.rounds) for css in CSS_SELECTORS]
             for name, a in found.items()}
    names = list(times)
    print(f"{pages[0].id}: best of {args.rounds}, microseconds")
    print(f"{'selector':38s}" + "".join(f"{n:>12s}" for n in names)
          + ("   turbohtml/fastparse" if "turbohtml" in times else ""))
    for k, css in enumerate(CSS_SELECTORS):
        row = "".join(f"{times[n][k] * 1e6:12.2f}" for n in names)
        ratio = f"   {times['turbohtml'][k] / times['fastparse'][k]:.2f}" if "turbohtml" in times else ""
        print(f"{css:38s}{row}{ratio}")
    print(f"{'all 20':38s}" + "".join(f"{sum(times[n]) * 1e6:12.2f}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
