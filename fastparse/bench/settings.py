"""Timing settings: how many worker processes, values and loops.

Budgets (2 shared cores): --quick end to end on the generated corpus in under
90 s; the full run over real + generated pages with every peer in under 25 min.
pyperf's defaults (20 processes x 3 values per benchmark) would take hours over
~100 pages x 10 parsers, so: per round, one worker process per parser, all of
them parked, and each page sent to every parser in turn (the first one
rotating), so the values compared for a page are seconds apart (load on a
shared machine comes in phases that can slow everything 2x for tens of
seconds); rounds repeat that with fresh processes; loops calibrated so a value
lasts min_time; slow (parser, page) pairs get fewer values, never fewer than
one per round, and calls longer than long_call skip the last round.

The clock is the worker's CPU time (time.process_time: user + system, all
threads) unless --clock wall: on a shared machine wall time also counts the
time other processes hold the core, which inflates long values more than
short ones and so bends every ratio."""
from __future__ import annotations

from dataclasses import asdict, dataclass, replace


@dataclass(frozen=True)
class Settings:
    rounds: int            # worker processes per (parser, task): pyperf "runs"
    values: int            # values per page per round
    min_time: float        # seconds a value should last (sets loops)
    page_budget: float     # seconds one page may take per round (caps values)
    warmup_below: float    # one warm-up per round when a single call is faster than this
    long_call: float       # calls slower than this get rounds - 1 rounds
    scaling_sizes: tuple[int, ...]
    scaling_cap: float     # stop a parser's sweep when the next size would exceed this (s)
    memory_copies: int     # parsed copies kept alive for the retained-memory figure
    memory_budget: float   # seconds of parsing per page in the memory task (caps copies)
    memory_ceiling: int    # bytes the copies may take (caps copies)
    clock: str             # "cpu" (time.process_time) or "wall" (time.perf_counter)

    def as_dict(self) -> dict:
        return asdict(self)

    def with_clock(self, clock: str) -> Settings:
        return replace(self, clock=clock)


FULL = Settings(rounds=3, values=2, min_time=0.005, page_budget=0.3, warmup_below=0.05, long_call=0.25,
                scaling_sizes=(10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000),
                scaling_cap=3.0, memory_copies=10, memory_budget=1.0, memory_ceiling=6 << 30,
                clock="cpu")

QUICK = Settings(rounds=1, values=2, min_time=0.002, page_budget=0.1, warmup_below=0.02, long_call=0.25,
                 scaling_sizes=(10_000, 100_000, 1_000_000),
                 scaling_cap=0.4, memory_copies=10, memory_budget=0.4, memory_ceiling=2 << 30,
                 clock="cpu")

# --quick reads the small pages of the generated corpus (records, malformed
# variants, two x10 pages): with the slowest peers parsing about 2 MB/s, the
# 1 MB search page alone would cost the quick run ~10 s.
QUICK_PAGES = ("books", "quotes", "laptops", "books-no-end-li-p", "books-unquoted-attrs",
               "books.x10", "quotes.x10")
