"""Instruction counts of the engine's work on the real pages, under callgrind.

    python tools/callgrind_counts.py [--corpus-dir DIR] [--work parse,links,css]

Wall-clock ratios on a shared machine move 5-20% between runs; instruction counts do not.
Three kinds of work over every real page (each figure is for one pass over all of them):

parse  fp.parse(page bytes), as a user calls it: the encoding decision, the engine, the
       Document (and freeing the previous one).
links  every <a href>: (tag.get("href"), tag.get_text(skip=(), collapse=True)) over
       doc.select("a[href]"), on documents parsed beforehand.
css    the benchmark's 20 selectors (fastparse.bench.tasks.CSS_SELECTORS) on documents
       parsed beforehand, every selector compiled beforehand.

Each is the difference of two runs of the program, with one and with two passes: the
loading, parsing and start-up the two runs share cancel out. The build measured
(fastparse._core.BUILD: profile-guided or plain) is printed first.
Needs valgrind; takes a few minutes.
"""
from __future__ import annotations

import argparse
import os
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _work(pages_file: str, work: str, passes: int) -> None:
    """The measured program (run under valgrind)."""
    sys.path.insert(0, str(ROOT))
    import fastparse as fp
    from fastparse.bench.tasks import CSS_SELECTORS
    pages = pickle.loads(Path(pages_file).read_bytes())
    fp.parse(pages[0])
    if work == "parse":
        for _ in range(passes):
            for data in pages:
                fp.parse(data)
        return
    docs = [fp.parse(data) for data in pages]
    for css in CSS_SELECTORS:
        docs[0].select(css)
    for _ in range(passes):
        for doc in docs:
            if work == "links":
                [(a.get("href"), a.get_text(skip=(), collapse=True)) for a in doc.select("a[href]")]
            else:
                for css in CSS_SELECTORS:
                    doc.select(css)


def instructions(script: str, *args: str) -> int:
    """Instructions `python script args...` executes under callgrind (string hashing
    seeded alike, so two runs' dicts are laid out alike)."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, script, *args]
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stderr
    return int(re.search(r"Collected : (\d+)", out).group(1))


def _instructions(pages_file: str, work: str, passes: int) -> int:
    return instructions(__file__, "--run", pages_file, work, str(passes))


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--run":
        _work(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus-dir", default=None)
    ap.add_argument("--work", default="parse,links,css")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from fastparse import _core, corpora
    pages = [p.read() for p in corpora.real_pages(args.corpus_dir)]
    with tempfile.NamedTemporaryFile(suffix=".pickle") as f:
        f.write(pickle.dumps(pages))
        f.flush()
        print(f"build: {_core.BUILD}")
        print(f"{len(pages)} real pages, {sum(map(len, pages)) / 1e6:.1f} MB")
        for work in args.work.split(","):
            n = _instructions(f.name, work, 2) - _instructions(f.name, work, 1)
            print(f"{work:6} {n / 1e6:8.2f} M instructions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
