"""What the recovery rules cost the parse: instructions (callgrind) of the C engine at two
git revisions, page by page, over the real pages of ../shared/corpora.

    python tools/recovery_cost.py                    # c722cab (before issue 3's rules) vs HEAD
    python tools/recovery_cost.py --before REV --after REV [--corpus DIR] [--limit N]

Builds fastparse/_core/*.c (the engine, not the binding) of each revision with a tiny
driver that parses a page once, and counts instructions with valgrind --tool=callgrind:
repeatable on a shared machine, unlike wall time. Prints each page's change and the
median / max over the pages.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fp.h"
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(n ? n : 1);
    if (fread(b, 1, n, f) != (size_t)n) return 1;
    fclose(f);
    fp_options o; memset(&o, 0, sizeof o); o.max_size = 1u << 30; o.max_depth = 4096;
    fp_doc d; memset(&d, 0, sizeof d);
    if (fp_parse(&d, b, n, &o) != 0) return 2;
    fp_doc_free(&d); free(b);
    return 0;
}
"""


def build(rev: str, work: Path) -> Path:
    tree = work / rev
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(tree), rev], cwd=ROOT, check=True,
                   capture_output=True)
    core = tree / "fastparse" / "_core"
    sources = [str(p) for p in sorted(core.glob("*.c")) if not p.name.startswith("py_")]
    (work / "driver.c").write_text(DRIVER)
    exe = work / f"parse-{rev}"
    subprocess.run(["gcc", "-O2", "-std=c11", "-D_GNU_SOURCE", f"-I{core}", "-o", str(exe),
                    str(work / "driver.c"), *sources], check=True)
    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)
    return exe


def instructions(exe: Path, page: Path) -> int:
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(exe), str(page)],
                         capture_output=True, text=True, check=True).stderr
    return int(next(line for line in out.splitlines() if "Collected" in line).split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", default="c722cab")
    ap.add_argument("--after", default="HEAD")
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpora")
    ap.add_argument("--limit", type=int, default=0, help="only the first N pages")
    args = ap.parse_args()
    manifest = (args.corpus / "MANIFEST.tsv").read_text().splitlines()[1:]
    pages = [args.corpus / line.split("\t")[0] for line in manifest]
    pages = pages[: args.limit] if args.limit else pages
    with tempfile.TemporaryDirectory() as tmp:
        before, after = build(args.before, Path(tmp)), build(args.after, Path(tmp))
        changes = []
        for page in pages:
            a, b = instructions(before, page), instructions(after, page)
            changes.append(100 * (b / a - 1))
            print(f"{changes[-1]:+6.1f}%  {a:>12,} -> {b:>12,}  {page.relative_to(args.corpus)}")
    print(f"{len(changes)} pages: median {statistics.median(changes):+.1f}%, "
          f"max {max(changes):+.1f}%, min {min(changes):+.1f}% instructions ({args.before} -> {args.after})")


if __name__ == "__main__":
    main()
