"""Command line: run the benchmark, render its tables and plots.

  python -m fastparse.bench                    run (defaults: generated corpus), then render
  python -m fastparse.bench run [--quick] [--tasks parse,extract,...] [--parsers ...]
                                [--corpus generated|real|all] [--corpus-dir DIR] [--out DIR]
  python -m fastparse.bench render [--raw DIR ...] [--out DIR]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .adapters import NAMES
from .tasks import TASKS


def _csv(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="small fast configuration (tests, CI)")
    p.add_argument("--tasks", type=_csv, default=list(TASKS), help=f"comma list of {','.join(TASKS)}")
    p.add_argument("--parsers", type=_csv, default=list(NAMES), help=f"comma list of {','.join(NAMES)}")
    p.add_argument("--corpus", choices=("generated", "real", "all"), default="generated")
    p.add_argument("--corpus-dir", default=None, help="folder holding the real pages (else ../shared/corpora, "
                                                      "else the fetch cache)")
    p.add_argument("--out", type=Path, default=None, help="raw results folder (default results/raw/<date>_<sha>_<host>)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                   help="cpu: worker CPU time, robust on a shared machine (default); wall: perf_counter")
    p.add_argument("--allow-mismatch", action="store_true",
                   help="record wrong outputs and go on instead of failing the run")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m fastparse.bench", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd")
    _run_args(sub.add_parser("run", help="measure; write raw results"))
    r = sub.add_parser("render", help="tables and plots from raw results")
    r.add_argument("--raw", type=Path, action="append", default=None,
                   help="raw results folder (default: the newest); repeat it to pool runs of the same code")
    r.add_argument("--out", type=Path, default=None, help="where tables/ and plots/ go (default results/)")
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parser().parse_args(argv)
    from ..corpora import CorpusError
    from . import render, runner, validate
    if args.cmd == "render":
        render.render(args.raw, args.out)
        return 0
    bare = args.cmd is None
    if bare:                       # bare command: run with the defaults, then render
        args = parser().parse_args(["run"])
    unknown = [t for t in args.tasks if t not in TASKS]
    if unknown:
        parser().error(f"unknown task(s) {unknown}; known: {', '.join(TASKS)}")
    try:
        out = runner.Run(quick=args.quick, tasks=args.tasks, parsers=args.parsers, corpus=args.corpus,
                         corpus_dir=args.corpus_dir, out=args.out, allow_mismatch=args.allow_mismatch,
                         clock=args.clock).execute()
    except validate.ValidationError as exc:
        print(f"\nBENCHMARK FAILED: {exc}", file=sys.stderr)
        return 3
    except (ValueError, CorpusError) as exc:     # unknown parser, missing or altered corpus page
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"raw results: {out}")
    if bare:
        render.render(out, None)
    return 0
