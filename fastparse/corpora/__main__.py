"""python -m fastparse.corpora fetch | list | generate

  fetch [--dest DIR]             download the real pages (pinned URLs), verify sha256, fill the cache
  list [--corpus all] [--corpus-dir DIR]   show the pages and where each was found
  generate --out DIR             write the generated pages (and their records as JSON) to a folder
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import generated, loader
from .fetch import fetch


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fastparse.corpora", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("fetch", help="download the real pages into the cache")
    f.add_argument("--dest", type=Path, default=None, help=f"default: {loader.cache_dir()}")
    ls = sub.add_parser("list", help="list pages and where they were found")
    ls.add_argument("--corpus", default="all", choices=("generated", "real", "all"))
    ls.add_argument("--corpus-dir", default=None)
    g = sub.add_parser("generate", help="write the generated pages to a folder")
    g.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)

    if args.cmd == "fetch":
        failed = fetch(args.dest)
        if failed:
            print(f"{len(failed)} page(s) failed; see above", file=sys.stderr)
        return 1 if failed else 0
    if args.cmd == "list":
        for p in loader.pages(args.corpus, args.corpus_dir):
            print(f"{p.origin:9} {p.kind:12} {p.nbytes:>10,}  {p.id}  {p.path or ''}")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name in generated.SPECS:
        data, truth = generated.build(name)
        (args.out / f"{name}.html").write_bytes(data)
        if truth is not None:
            (args.out / f"{name}.records.json").write_text(json.dumps(truth, ensure_ascii=False, indent=1))
    print(f"{len(generated.SPECS)} pages written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
