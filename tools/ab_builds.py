"""Two commits' parse, side by side in one process: the A/B behind the change figures.

    python tools/ab_builds.py REV_A REV_B [--rounds 5] [--task parse|css] [--corpus-dir DIR] [--show PAGE ...]

Each revision is exported (git archive) to a temporary folder and built there as setup.py
builds it (profile-guided with GCC; FASTPARSE_PGO=0 for the plain build), and its package is
imported under a name of its own. Then every real page goes to each build in turn, round
after round, alternating which goes first, and each keeps its best time per page. Printed:
B's time / A's time at the median page, the geometric mean and the total (< 1: B is faster),
and the two times of each page named with --show (a path of the manifest, or its tail).

Why one process: on the shared machines this project is measured on, whole runs move 10-30%
with the machine's phases (README, "Committed results"); two builds alternated page by page
see the same phases, and an A/A comparison of one build with itself reads within 1%.
--task css times the benchmark's css task instead: parse, then doc.select of each of the
20 selectors of fastparse.bench.tasks.CSS_SELECTORS, as the benchmark's adapter does; each
build compiles and caches its own programs (own_selectors), so A and B may differ in the
program format.
"""
from __future__ import annotations

import argparse
import gc
import importlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build(rev: str, work: Path) -> str:
    """Exports and builds rev under work; returns the importable package name."""
    sha = subprocess.check_output(["git", "-C", str(ROOT), "rev-parse", "--short=10", rev], text=True).strip()
    name = f"fp_{sha}"
    if (work / name).exists():
        return name   # A and B name the same commit
    src = work / f"src_{sha}"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    print(f"building {rev} ({sha}) ...", file=sys.stderr, flush=True)
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=src, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        raise SystemExit(f"building {rev} failed:\n{done.stderr[-4000:]}")
    shutil.copytree(src / "fastparse", work / name)   # relative imports: the package works renamed
    return name


def best_times(parsers: list, pages: list[bytes], rounds: int, fewer: list[int] | None = None) -> list[list[float]]:
    """Each parser's best time per page over `rounds` rounds, the parsers taking the pages in
    turn, in alternating order. A measurement is about 2 ms of fastparse parsing the page;
    fewer[k] divides parser k's calls (a DOM parser is ten times slower)."""
    best = [[float("inf")] * len(pages) for _ in parsers]
    fewer = fewer or [1] * len(parsers)
    gc.disable()
    for r in range(rounds):
        for i, data in enumerate(pages):
            order = range(len(parsers)) if (r + i) % 2 == 0 else reversed(range(len(parsers)))
            for k in order:
                reps = max(1, 3_000_000 // (len(data) + 5000) // fewer[k])
                parse = parsers[k]
                t = time.perf_counter()
                for _ in range(reps):
                    parse(data)
                best[k][i] = min(best[k][i], (time.perf_counter() - t) / reps)
        gc.collect()
    gc.enable()
    return best


def own_selectors(mod) -> None:
    """Makes mod's _core run selects with mod's own selector package. The C binding
    imports fastparse.selectors and fastparse.selectors.cache by name, once per
    module state, on its first select: that first select runs while those names
    point at mod's copies (two builds may differ in program format)."""
    names = ("fastparse", "fastparse.selectors", "fastparse.selectors.cache")
    own = {k: importlib.import_module(mod.__name__ + k[len("fastparse"):]) for k in names}
    saved = {k: sys.modules.get(k) for k in names}
    sys.modules.update(own)
    try:
        mod.parse(b"<p>").select("p")
    finally:
        for k, m in saved.items():
            if m is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = m


def css_task(mod, selectors: tuple[str, ...]):
    """mod's css task as the benchmark's adapter runs it: a parse, then doc.select
    of each selector, through mod's own compiler and program cache."""
    own_selectors(mod)
    parse = mod.parse

    def task(data: bytes) -> None:
        doc = parse(data)
        for css in selectors:
            doc.select(css)
    return task


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev_a")
    ap.add_argument("rev_b")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--task", choices=["parse", "css"], default="parse")
    ap.add_argument("--corpus-dir", default=None)
    ap.add_argument("--show", nargs="*", default=[], help="pages whose two times to print")
    args = ap.parse_args(argv)

    from fastparse import corpora
    real = corpora.real_pages(args.corpus_dir)
    pages = [p.read() for p in real]
    with tempfile.TemporaryDirectory(prefix="fastparse-ab-") as tmp:
        work = Path(tmp)
        names = [build(args.rev_a, work), build(args.rev_b, work)]
        sys.path.insert(0, str(work))
        mods = [importlib.import_module(n) for n in names]
        builds = {m._core.BUILD for m in mods}
        print(f"A = {args.rev_a} ({names[0]}), B = {args.rev_b} ({names[1]}); build: {', '.join(sorted(builds))}; "
              f"{len(pages)} real pages, task {args.task}, best of {args.rounds} rounds")
        if args.task == "css":
            from fastparse.bench.tasks import CSS_SELECTORS
            timed = [css_task(m, CSS_SELECTORS) for m in mods]
        else:
            timed = [m.parse for m in mods]
        a, b = best_times(timed, pages, args.rounds)
    ratios = [y / x for x, y in zip(a, b)]
    print(f"B / A: median page {statistics.median(ratios):.4f}, geometric mean "
          f"{statistics.geometric_mean(ratios):.4f}, total {sum(b) / sum(a):.4f}")
    for want in args.show:
        for page, x, y in zip(real, a, b):
            if page.id == want or page.id.endswith(want):
                print(f"  {page.id}: A {x * 1e6:.2f} us, B {y * 1e6:.2f} us ({y / x:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
