"""A scraping loop's per-call cost: select_one on each product card of a page.

    python tools/select_per_call.py [--cards 200 2000 20000] [--rounds 5]

Builds a page of N cards (eight elements each, with a form), then for each selector times
`card.select_one(css)` on one card, in fastparse and (when installed) turbohtml,
alternating the two `rounds` times and keeping each one's best. A per-call cost
that grows with N is work proportional to the document done on every call: the
tag index, the sibling table and the form tables a document keeps from its first
select are there to prevent it. CPU-time clock; the ratios matter more than the nanoseconds.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse

SELECTORS = (".price", "h3 a", "p:first-child", "span:first-of-type", "*:nth-child(2)", "p:nth-of-type(1)",
             "h3 + p", "p ~ span", "div:has(> p)", ":nth-child(2 of .price)", "p:lang(en)", "a:dir(ltr)",
             "button:default", "input:checked")
CALLS = 5000


def page(cards: int) -> bytes:
    card = ('<div class="card" data-id="{k}"><h3 class="title"><a href="/p/{k}">Product {k}</a></h3>'
            '<p class="price">{k}.99</p><span class="stock">in stock</span><form action="/cart">'
            '<input type="radio" name="size" value="s" checked><button>Add</button></form></div>')
    return f"<html><body><div id=grid>{''.join(card.format(k=k) for k in range(cards))}</div></body></html>".encode()


def per_call_ns(select_one, css: str) -> float:
    t0 = time.process_time()
    for _ in range(CALLS):
        select_one(css)
    return (time.process_time() - t0) / CALLS * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, nargs="+", default=[200, 2000, 20000])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    try:
        import turbohtml
    except ImportError:
        turbohtml = None
    print(f"{'cards':>6} {'elements':>8}  {'selector':24} {'fastparse ns':>12} {'turbohtml ns':>12} {'ratio':>6}")
    for cards in args.cards:
        data = page(cards)
        doc = fastparse.parse(data)
        card = doc.select("div.card")[3]
        peer = turbohtml.parse(data, positions=False).select("div.card")[3] if turbohtml else None
        for css in SELECTORS:
            ours = theirs = float("inf")
            peer_ok = peer is not None
            for _ in range(args.rounds):
                ours = min(ours, per_call_ns(card.select_one, css))
                if peer is not None:
                    try:
                        theirs = min(theirs, per_call_ns(peer.select_one, css))
                    except ValueError:  # a selector the peer does not support
                        peer_ok = False
            ratio = f"{theirs / ours:6.2f}" if peer_ok else "     -"
            shown = f"{theirs:12.0f}" if peer_ok else f"{'-':>12}"
            print(f"{cards:6d} {len(doc):8d}  {css:24} {ours:12.0f} {shown} {ratio}")


if __name__ == "__main__":
    main()
