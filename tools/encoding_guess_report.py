"""How the encoding guess does on the real pages, re-encoded and stripped of their declarations.

    python tools/encoding_guess_report.py [--corpus-dir DIR]

Each real page's text (decoded as fastparse decodes it) loses its <meta charset> and XML
declaration and is written again in the legacy encodings of its script: the CJK ones for a
page with Japanese, Korean or Chinese text, windows-1251, KOI8-R (guessed as KOI8-U, which
reads it alike), x-mac-cyrillic, IBM866 and ISO-8859-5 for one with Cyrillic,
and windows-1252 and windows-1250 for every page (their characters those encodings cannot
write dropped). Each copy goes to fastparse._encoding_guess.guess, which should name the
encoding it was written in, or nothing for a Latin-script copy (windows-1252, the
fallback), or one that reads the copy alike. A page whose script is a minority of its text (an English page quoting a
Russian title) counts apart: nothing is the right answer for it too (an English
Wikipedia page whose only non-ASCII letters are its language links' Cyrillic, say, is
counted as Cyrillic and left unguessed). Printed: each
encoding's right, wrong and unguessed copies, every wrong one, the guess's time per
copy (median and maximum, best of 3), and how many times longer each copy's parse takes
than with its encoding given (encoding=).
"""
from __future__ import annotations

import argparse
import collections
import re
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse as fp
from fastparse import corpora, encoding
from fastparse._encoding_guess import guess

T = TypeVar("T")

SCRIPTS = {   # a script's characters, the encodings that write it
    "japanese": ("[\u3041-\u30ff]", ("shift_jis", "euc-jp")),
    "korean": ("[\uac00-\ud7a3]", ("euc-kr",)),
    "chinese": ("[\u4e00-\u9fff]", ("gbk", "big5")),
    "cyrillic": ("[\u0400-\u04ff]", ("windows-1251", "koi8-r", "x-mac-cyrillic", "ibm866", "iso-8859-5")),
}
GUESSED_AS = {"koi8-r": "koi8-u"}   # KOI8-U reads KOI8-R's letters, and Ukrainian's too
LATIN = ("windows-1252", "windows-1250")
DECLARATION = re.compile(r"(?i)<meta[^>]*charset[^>]*>|<\?xml[^>]*>")


def script_of(text: str) -> tuple[str | None, bool]:
    """The page's script (checked in SCRIPTS' order) and whether it is most of the page's
    non-ASCII letters."""
    non_ascii = len(re.findall(r"[^\W\d_a-zA-Z]", text))   # letters outside ASCII
    for name, (chars, _) in SCRIPTS.items():
        count = len(re.findall(chars, text))
        if count > 50:
            return name, count * 2 >= non_ascii
    return None, False


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """call's answer, and its time (best of 3)"""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        answer = call()
        best = min(best, time.perf_counter() - start)
    return answer, best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus-dir", default=None)
    args = ap.parse_args()
    counts: collections.Counter = collections.Counter()
    wrong, times, parses = [], [], []
    for page in corpora.real_pages(args.corpus_dir):
        data = page.read()
        found = encoding.detect(data)
        text = DECLARATION.sub("", data[len(found.bom):].decode(found.codec, "replace"))
        script, most = script_of(text)
        written = SCRIPTS[script][1] if script else ()
        # a CJK or Cyrillic page written in a Latin encoding, without its letters, says nothing
        for name in written or LATIN:
            copy = text.encode(encoding.lookup(name)[1], "replace" if name in written else "ignore")
            answer, seconds = timed(partial(guess, copy))
            times.append((seconds, f"{page.id} in {name}"))
            # the whole parse, undeclared (the guess's) and with the encoding given
            parses.append(timed(partial(fp.parse, copy))[1] / timed(partial(fp.parse, copy, encoding=name))[1])
            expected = GUESSED_AS.get(name, name) if name in written else None
            # a guess that reads the copy as its own encoding does is right too (a Czech page
            # in windows-1252, without the letters it cannot write, is windows-1250's alike)
            same = answer is not None and copy.decode(encoding.lookup(answer)[1], "replace") == copy.decode(
                encoding.lookup(name)[1], "replace")
            kind = "right" if answer == expected or same else "none" if answer is None else "wrong"
            if kind == "none" and not most:
                kind = "none (minority script)"
            counts[(name, kind)] += 1
            if kind == "wrong" or kind == "none":
                wrong.append(f"  {page.id}: written in {name}, guessed {answer}")
    for name in [n for _, (_, names) in SCRIPTS.items() for n in names] + list(LATIN):
        row = {kind: counts[(name, kind)] for kind in ("right", "wrong", "none", "none (minority script)")}
        print(f"{name:13} " + ", ".join(f"{k} {v}" for k, v in row.items() if v or k == "right"))
    print("\n".join(wrong) or "no wrong guess, no page of a script left unguessed")
    slowest = max(times)
    print(f"guess time per copy: median {statistics.median(t for t, _ in times) * 1e3:.2f} ms, "
          f"max {slowest[0] * 1e3:.2f} ms ({slowest[1]}; {len(times)} copies)")
    print(f"parse time per copy, undeclared / with encoding=: median {statistics.median(parses):.1f}x, "
          f"max {max(parses):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
