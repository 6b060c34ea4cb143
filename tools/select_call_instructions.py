"""Instructions one select_one / select / matches / closest call costs, under callgrind.

    python tools/select_call_instructions.py [--doctype] [CSS:METHOD ...]

The call is made on a product card of select_per_call.py's page (200 cards; `a.closest`
on the card's first <a>), in a loop of 2,000 and of 12,000 calls, each under valgrind;
the difference over 10,000 is one call, with the loop's own work (about 320
instructions of the interpreter, range and int objects) left in. Wall clock on a shared
machine moves 10-30% between runs; these counts repeat to the instruction.
--doctype parses the page in no-quirks mode (class names compared as written).
Without arguments, the calls the README's per-call figures cite. Needs valgrind.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from callgrind_counts import instructions  # tools/: the same valgrind run

ROOT = Path(__file__).resolve().parent.parent
CALLS = (".price:select_one", "h3 a:select_one", "p:select_one", "div:matches", "div.card:closest",
         "*:nth-child(2):select_one", "p:select", "a:dir(ltr):select_one")
LOOPS = (2000, 12000)


def _work(css: str, method: str, calls: int, doctype: bool) -> None:
    """The measured program (run under valgrind)."""
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tools"))
    from select_per_call import page

    import fastparse
    doc = fastparse.parse((b"<!DOCTYPE html>" if doctype else b"") + page(200))
    card = doc.select("div.card")[3]
    call = getattr(card.find("a") if method == "closest" else card, method)
    for _ in range(calls):
        call(css)


def call_instructions(css: str, method: str, calls: int, doctype: bool) -> int:
    return instructions(__file__, "--work", css, method, str(calls), *(["--doctype"] if doctype else []))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("calls", nargs="*", default=list(CALLS), help="CSS:METHOD (select_one, select, matches, closest)")
    ap.add_argument("--doctype", action="store_true")
    ap.add_argument("--work", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.work:
        _work(args.work[0], args.work[1], int(args.work[2]), args.doctype)
        return 0
    import fastparse
    print(f"build: {fastparse._core.BUILD}; {'no-quirks' if args.doctype else 'quirks'} page, 200 cards")
    for spec in args.calls:
        css, _, method = spec.rpartition(":")
        short, long = (call_instructions(css, method, n, args.doctype) for n in LOOPS)
        print(f"  {method:10s} {css!r:28s} {(long - short) / (LOOPS[1] - LOOPS[0]):8.0f} instructions a call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
