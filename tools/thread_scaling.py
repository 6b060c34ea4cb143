"""Two threads against one: the parse's throughput when the GIL is released.

    python tools/thread_scaling.py [--corpus real|generated|all] [--rounds 25] [--repeat N] [--processes]

Each measurement parses every page `repeat` times in one thread, then the same work
twice over in two threads (each thread its own copy of the list); throughput ratio =
2 x serial time / two-thread time (2.00 = perfect scaling). The two kinds of run
alternate `rounds` times. The two threads are started first and released together
from a barrier: the time is of the parses, not of starting threads. By default
`repeat` is what makes one serial run last at least 0.25 s: a pass over the real pages
takes about 7 ms, and runs that short measured the start of the second thread (it waits
for the GIL, up to the 5 ms switch interval) more than the parses: 1.41 median at one
pass, 1.91 at ten, on the same machine, in the same minute. Printed: the ratio of each
round and their median, and the ratio of the best serial time to the best two-thread
time. Wall clock: run it on a quiet machine with at least two free cores.

The shared machines this was measured on switch, for seconds to minutes, into phases
where code runs up to twice as slowly (README, "Committed results"); a round whose
serial and two-thread runs fall in different phases reads anywhere from 1.0 to 2.3.
The best-times ratio compares the two kinds of run in the machine's quiet state.

--processes measures, in the same rounds, two forked processes against one doing the same
work: processes share no GIL, so they show what the machine itself allows two threads.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse
from fastparse.corpora import loader


def parse_all(datas: list[bytes], repeat: int) -> None:
    for _ in range(repeat):
        for data in datas:
            fastparse.parse(data)


def two_threads(datas: list[bytes], repeat: int) -> float:
    """From the barrier's release to the end of the slower thread."""
    barrier = threading.Barrier(3)
    ends: list[float] = []

    def work(pages: list[bytes]) -> None:
        barrier.wait()
        parse_all(pages, repeat)
        ends.append(time.perf_counter())
    workers = [threading.Thread(target=work, args=(list(datas),)) for _ in range(2)]
    for w in workers:
        w.start()
    barrier.wait()
    t0 = time.perf_counter()
    for w in workers:
        w.join()
    return max(ends) - t0


def one_thread(datas: list[bytes], repeat: int) -> float:
    t0 = time.perf_counter()
    parse_all(datas, repeat)
    return time.perf_counter() - t0


def _child(datas: list[bytes], repeat: int, barrier, out) -> None:
    parse_all(datas, 1)   # its own warm-up: the fork shares pages until they are written
    barrier.wait()
    out.put(one_thread(datas, repeat))


def processes(datas: list[bytes], repeat: int, n: int) -> float:
    """n forked processes doing the same work at once: the time of the slowest."""
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(n), ctx.Queue()
    children = [ctx.Process(target=_child, args=(datas, repeat, barrier, out)) for _ in range(n)]
    for c in children:
        c.start()
    times = [out.get() for _ in children]
    for c in children:
        c.join()
    return max(times)


def _report(kind: str, ones: list[float], twos: list[float]) -> None:
    ratios = [2 * a / b for a, b in zip(ones, twos)]
    print(f"two {kind} throughput / one: " + " ".join(f"{r:.2f}" for r in ratios))
    print(f"median {statistics.median(ratios):.2f}, best {max(ratios):.2f} (2.00 = perfect)")
    print(f"best time of one / best time of two: {2 * min(ones) / min(twos):.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="real", choices=("real", "generated", "all"))
    ap.add_argument("--rounds", type=int, default=25)
    ap.add_argument("--repeat", type=int, default=0,
                    help="passes over the pages per run (default: enough for 0.25 s in one thread)")
    ap.add_argument("--processes", action="store_true",
                    help="also two processes against one, in the same rounds (POSIX: fork)")
    args = ap.parse_args()
    datas = [p.read() for p in loader.pages(args.corpus)]
    parse_all(datas, 1)  # warm up: caches, the allocator, the selectors' imports
    if args.repeat <= 0:
        args.repeat = max(1, math.ceil(0.25 / one_thread(datas, 1)))
    serials, parallels, solos, pairs = [], [], [], []
    for _ in range(args.rounds):
        serials.append(one_thread(datas, args.repeat))
        parallels.append(two_threads(datas, args.repeat))
        if args.processes:
            solos.append(processes(datas, args.repeat, 1))
            pairs.append(processes(datas, args.repeat, 2))
    mb = sum(map(len, datas)) / 1e6
    print(f"{len(datas)} pages, {mb:.1f} MB, {args.repeat} passes per thread, {args.rounds} rounds")
    _report("threads", serials, parallels)
    if args.processes:
        _report("processes", solos, pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
