"""What each of the `css` task's 20 selectors costs, in parses: the selector's time over
every parsed page divided by the time to parse those pages, both taken in the same run.

    python tools/select_costs.py [--corpus real|generated|all] [--corpus-dir DIR] [--rounds 20]

A ratio to the parse, not a time, because absolute times on a shared machine drift
between runs; the sum is the `css-alone` task's cost in parses. The first selector of the
list also pays for building each document's tag index (cold caches here: the pages were
parsed before the timing; the benchmark parses just before it selects). CPU time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse
from fastparse.bench.tasks import CSS_SELECTORS
from fastparse.corpora import loader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="real", choices=["real", "generated", "all"])
    ap.add_argument("--corpus-dir", help="folder holding the real pages (else ../shared/corpora, else the fetch cache)")
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    datas = [p.read() for p in loader.pages(args.corpus, args.corpus_dir)]
    docs = [fastparse.parse(d) for d in datas]
    t0 = time.process_time()
    for _ in range(args.rounds):
        for data in datas:
            fastparse.parse(data)
    parse = (time.process_time() - t0) / args.rounds
    print(f"{len(datas)} pages, parse {parse * 1e3:.2f} ms a round")
    total = 0.0
    for css in CSS_SELECTORS:
        t0 = time.process_time()
        for _ in range(args.rounds):
            for doc in docs:
                doc.select(css)
        cost = (time.process_time() - t0) / args.rounds / parse
        total += cost
        print(f"  {css:40s} {cost:6.3f}")
    print(f"  {'all 20':40s} {total:6.3f}")


if __name__ == "__main__":
    main()
