"""`render`: tables (Markdown + CSV) and plots (PNG + SVG) from raw results folders.

Every figure is recomputed from the raw files, never edited by hand:
  time       the median of a page's pyperf values (seconds per parse or task);
             with several runs of the same code pooled (`render --raw A --raw B ...`),
             the median of the runs' times: bursts of load on a shared machine slow a
             whole worker round, and one run can catch them for one parser only
  × fastparse  a parser's time / fastparse's on the same page; summaries take
             the median over pages of that per-page ratio (>1: slower)
  × floor    the same against the memchr floor
  retained   RSS growth per parsed document kept alive, / page bytes
Pages with a wrong output appear as "wrong output" and never in a median."""
from __future__ import annotations

import csv
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

from .runner import project_root

TIMED = ("parse", "extract", "links", "select", "css", "css-alone", "scaling")


# ---- loading --------------------------------------------------------------------
def newest_raw(root: Path) -> Path:
    runs = sorted(p for p in (root / "results" / "raw").glob("*") if (p / "run.json").exists())
    if not runs:
        raise SystemExit(f"no raw results under {root / 'results' / 'raw'}; run `python -m fastparse.bench run` first")
    return runs[-1]


def load(raw: Path) -> dict:
    import pyperf
    run = json.loads((raw / "run.json").read_text())
    times: dict = defaultdict(dict)   # task -> {(parser, page): seconds}
    scaling_bytes: dict = {}
    for task in TIMED:
        for f in sorted((raw / task).glob("*.json")):
            for b in pyperf.BenchmarkSuite.load(str(f)).get_benchmarks():
                times[task][(f.stem, b.get_name())] = b.median()
                if task == "scaling":
                    scaling_bytes[b.get_name()] = b.get_metadata()["page_bytes"]
    mem: dict = defaultdict(dict)     # folder -> {(parser, page): figures}
    for folder in ("memory", "scaling-memory"):
        for f in sorted((raw / folder).glob("*.json")):
            for pid, m in json.loads(f.read_text())["pages"].items():
                if "retained" in m:
                    mem[folder][(f.stem, pid)] = m
    return {"name": raw.name, "run": run, "times": times, "mem": mem, "scaling_bytes": scaling_bytes,
            "pages": {p["id"]: p for p in run["pages"]},
            "parsers": list(run["parsers"]),
            "wrong": {(f["task"], f["parser"], f["page"]) for f in run["findings"]}}


def pool(runs: list[dict]) -> dict:
    """Several loaded runs of the same code as one: per page and parser, the median
    of the runs' times (and memory figures); pages, parsers, versions and labels
    come from the last run; a wrong output in any run is a wrong output."""
    last = runs[-1]
    if len({r["run"]["git_sha"] for r in runs}) > 1:
        raise SystemExit("pooled runs must measure the same code: "
                         + ", ".join(sorted({r["run"]["git_sha"] for r in runs})))
    times: dict = defaultdict(dict)
    for task in {t for r in runs for t in r["times"]}:
        keys = {k for r in runs for k in r["times"].get(task, {})}
        for k in keys:
            times[task][k] = statistics.median(r["times"][task][k] for r in runs if k in r["times"].get(task, {}))
    mem: dict = defaultdict(dict)
    for folder in {f for r in runs for f in r["mem"]}:
        for k in {k for r in runs for k in r["mem"].get(folder, {})}:
            ms = [r["mem"][folder][k] for r in runs if k in r["mem"].get(folder, {})]
            m = dict(ms[-1])
            for field in ("retained", "peak"):
                if all(field in x for x in ms):
                    m[field] = statistics.median(x[field] for x in ms)
            mem[folder][k] = m
    scaling_bytes = {k: v for r in runs for k, v in r["scaling_bytes"].items()}
    return {**last, "times": times, "mem": mem, "scaling_bytes": scaling_bytes,
            "wrong": set().union(*(r["wrong"] for r in runs)), "pooled": [r["name"] for r in runs]}


# ---- small helpers ----------------------------------------------------------------
def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def _fmt(x, kind: str = "ratio") -> str:
    if x is None:
        return "–"
    if kind == "ratio":
        return f"{x:.2f}×" if x < 10 else f"{x:.0f}×"
    if kind == "ms":
        return f"{x * 1e3:.3f}" if x < 1e-2 else f"{x * 1e3:.1f}"
    if kind == "mbs":
        return f"{x:.0f}" if x >= 10 else f"{x:.1f}"
    return f"{x:.2f}"


def _write(out: Path, name: str, headers: list[str], rows: list[list], note: str = "") -> None:
    with open(out / f"{name}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(headers)
        w.writerows(rows)
    md = [f"| {' | '.join(headers)} |", "|" + "|".join("---" if i == 0 else "--:" for i in range(len(headers))) + "|"]
    md += [f"| {' | '.join(str(c) for c in r)} |" for r in rows]
    (out / f"{name}.md").write_text((note + "\n\n" if note else "") + "\n".join(md) + "\n")


def _ratio(times: dict, parser: str, base: str, pages) -> float | None:
    return _median([times[(parser, p)] / times[(base, p)] for p in pages
                    if (parser, p) in times and (base, p) in times])


def _label(d: dict, parser: str) -> str:
    return d["run"]["parsers"][parser]["label"]


def _version(d: dict, parser: str) -> str:
    return " ".join(f"{v}" for v in d["run"]["parsers"][parser]["versions"].values())


# ---- tables -----------------------------------------------------------------------
def task_tables(d: dict, task: str, out: Path) -> None:
    times = d["times"].get(task, {})
    if not times:
        return
    pages = sorted({p for _, p in times}, key=lambda p: (d["pages"][p]["origin"], d["pages"][p]["kind"], p))
    parsers = [p for p in d["parsers"] if any((p, pg) in times for pg in pages)]
    kinds = sorted({d["pages"][p]["kind"] for p in pages})
    origins = sorted({d["pages"][p]["origin"] for p in pages})
    agreement = d["run"].get("link_agreement", {}).get(task, {})
    summary = []
    for parser in parsers:
        mine = [p for p in pages if (parser, p) in times]
        mbs = _median([d["pages"][p]["bytes"] / times[(parser, p)] / 1e6 for p in mine])
        row = [_label(d, parser), _version(d, parser), len(mine), _fmt(mbs, "mbs"),
               _fmt(_ratio(times, parser, "fastparse", pages)), _fmt(_ratio(times, parser, "floor", pages))]
        row += [_fmt(_ratio(times, parser, "fastparse", [p for p in pages if d["pages"][p]["origin"] == o]))
                for o in origins]
        row += [_fmt(_ratio(times, parser, "fastparse", [p for p in pages if d["pages"][p]["kind"] == k]))
                for k in kinds]
        if agreement:
            row.append(_fmt(_median([a[parser] for a in agreement.values() if parser in a]), "x"))
        summary.append(row)
    note = (f"**{task}**: median over pages of each page's time ratio (>1 = slower than fastparse); "
            "MB/s = median page throughput.")
    if task == "css-alone":
        note += (" The 20 css selectors alone, on a document parsed beforehand (the parse is not timed; "
                 "a parser keeps what its first select built, as fastparse keeps its per-document tag index).")
    if agreement and task.startswith("css"):
        note += (" 20 selectors per page (fastparse.bench.tasks.CSS_SELECTORS). Agreement: share of "
                 "selectors whose match count equals fastparse's on the real pages (median); HTML5 "
                 "trees add implied and cloned elements.")
    elif agreement:
        note += (" Agreement: share of (href, text) pairs equal to fastparse's on the real pages (median); "
                 "HTML5 parsers add the <a> elements the adoption agency clones.")
    _write(out, task, ["parser", "version", "pages", "MB/s", "× fastparse", "× floor"]
           + [f"× fp: {o}" for o in origins] + [f"× fp: {k}" for k in kinds]
           + (["agreement (real)"] if agreement else []), summary, note)
    rows = []
    for p in pages:
        pg = d["pages"][p]
        cells = []
        for parser in parsers:
            if (task, parser, p) in d["wrong"]:
                cells.append("wrong output")
            else:
                cells.append(_fmt(times.get((parser, p)), "ms"))
        rows.append([p, pg["kind"], pg["bytes"]] + cells)
    _write(out, f"{task}_pages", ["page", "kind", "bytes"] + [f"{_label(d, x)} ms" for x in parsers], rows,
           f"**{task}**: median time per page (ms).")


def linear_table(d: dict, out: Path) -> None:
    times = d["times"].get("parse", {})
    bases = sorted({p[:-4] for _, p in times if p.endswith(".x10")})
    rows = []
    for parser in d["parsers"]:
        r = [times[(parser, b + ".x10")] / times[(parser, b)] for b in bases
             if (parser, b) in times and (parser, b + ".x10") in times]
        if r:
            rows.append([_label(d, parser), len(r), _fmt(_median(r), "x"), _fmt(max(r), "x")])
    if rows:
        _write(out, "linear", ["parser", "pages", "median t(x10)/t(page)", "max"], rows,
               "**Linear growth**: a page concatenated ten times, time relative to the page (10 = linear).")


def memory_table(d: dict, out: Path) -> None:
    mem = d["mem"].get("memory", {})
    if not mem:
        return
    parsers = [p for p in d["parsers"] if any(k[0] == p for k in mem)]
    rows, per_page = [], []
    for parser in parsers:
        items = [(pid, m) for (p, pid), m in mem.items() if p == parser]
        ret = _median([m["retained"] / m["bytes"] for _, m in items])
        peak = _median([m["peak"] / m["bytes"] for _, m in items])
        vs = _median([m["retained"] / mem[("fastparse", pid)]["retained"] for pid, m in items
                      if ("fastparse", pid) in mem and mem[("fastparse", pid)]["retained"] > 0])
        rows.append([_label(d, parser), len(items), _fmt(ret, "x"), _fmt(peak, "x"), _fmt(vs)])
    _write(out, "memory", ["parser", "pages", "retained / page bytes", "peak / page bytes", "retained × fastparse"],
           rows, "**Memory** (median over pages): RSS growth per parsed document with 10 copies alive, and the "
           "peak RSS growth during one parse, each divided by the page's size; fresh process per page.")
    pages = sorted({pid for _, pid in mem})
    for pid in pages:
        per_page.append([pid, d["pages"].get(pid, {}).get("bytes", "")] +
                        [f"{mem[(p, pid)]['retained'] / 1e6:.2f}" if (p, pid) in mem else "–" for p in parsers])
    _write(out, "memory_pages", ["page", "bytes"] + [f"{_label(d, p)} MB" for p in parsers], per_page,
           "**Retained memory** per parsed document (MB).")


def fit_slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log(y) on log(x): 1.0 is linear growth."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def scaling_series(d: dict) -> tuple[dict, dict]:
    t, m = defaultdict(list), defaultdict(list)
    for (parser, pid), v in d["times"].get("scaling", {}).items():
        t[parser].append((d["scaling_bytes"].get(pid, int(pid.rsplit("/", 1)[1])), v))
    for (parser, pid), v in d["mem"].get("scaling-memory", {}).items():
        m[parser].append((v["bytes"], v["retained"]))
    return ({k: sorted(v) for k, v in t.items()}, {k: sorted(v) for k, v in m.items()})


def scaling_table(d: dict, out: Path) -> None:
    t, m = scaling_series(d)
    if not t:
        return
    sizes = sorted({s for v in t.values() for s, _ in v})
    rows = []
    for parser in [p for p in d["parsers"] if p in t]:
        by = dict(t[parser])
        rows.append([_label(d, parser), _fmt(fit_slope(t[parser]), "x"), _fmt(fit_slope(m.get(parser, [])), "x")]
                    + [_fmt(by[s] / (s / 1e6), "ms") if s in by else "–" for s in sizes])
    _write(out, "scaling", ["parser", "time slope", "memory slope"] + [f"ms/MB @ {s / 1e6:.3g} MB" for s in sizes], rows,
           "**Scaling**: slopes of log(time) and log(retained memory) against log(size) (1.00 = linear); "
           "time per MB at each size. Sizes a slow parser would need over the cap for are left out.")


def headline(d: dict, out: Path) -> None:
    tp, tl, te = (d["times"].get(k, {}) for k in ("parse", "links", "extract"))
    mem = d["mem"].get("memory", {})

    def origin(task_times, o):
        return {p for (_, p) in task_times if d["pages"][p]["origin"] == o}

    rows = []
    for parser in d["parsers"]:
        if not any(x == parser for x, _ in tp):
            continue
        ret = {o: _median([m["retained"] / m["bytes"] for (x, pid), m in mem.items()
                           if x == parser and d["pages"].get(pid, {}).get("origin") == o])
               for o in ("real", "generated")}
        rows.append([_label(d, parser), _version(d, parser),
                     _fmt(_ratio(tp, parser, "fastparse", origin(tp, "real"))),
                     _fmt(_ratio(tp, parser, "fastparse", origin(tp, "generated"))),
                     _fmt(_ratio(tp, parser, "floor", {p for (_, p) in tp})),
                     _fmt(_ratio(tl, parser, "fastparse", origin(tl, "real"))),
                     _fmt(_ratio(te, parser, "fastparse", {p for (_, p) in te})),
                     _fmt(ret["real"], "x"), _fmt(ret["generated"], "x")])
    run = d["run"]
    n_real = sum(1 for p in d["pages"].values() if p["origin"] == "real")
    note = (f"**Headline** ({run['corpus']} corpus: {n_real} real and {len(d['pages']) - n_real} generated pages; "
            f"host {run['host']}, git {run['git_sha']}, {run['started']}). Time columns: median over pages of "
            "the per-page time ratio (>1 = slower than fastparse; the floor row shows how far below fastparse a "
            "bare memchr scan is). Memory: retained RSS per parsed document / page bytes (median).")
    if len(d.get("pooled", ())) > 1:
        note += (f" Pooled: each page's time is the median of {len(d['pooled'])} runs of this code "
                 f"({', '.join(d['pooled'])}).")
    if run["skipped_parsers"]:
        note += "\n\nNot measured: " + "; ".join(f"{k} ({v})" for k, v in run["skipped_parsers"].items()) + "."
    if run.get("skipped_tasks"):
        note += "\n\nTasks skipped: " + "; ".join(f"{k} ({v})" for k, v in run["skipped_tasks"].items()) + "."
    _write(out, "headline", ["parser", "version", "parse × fp (real)", "parse × fp (generated)", "parse × floor",
                             "links × fp (real)", "extract × fp", "retained / bytes (real)",
                             "retained / bytes (generated)"], rows, note)


# ---- plots ------------------------------------------------------------------------
def plots(d: dict, out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def save(fig, name):
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(out / f"{name}.{ext}", dpi=110)
        plt.close(fig)

    # One colour per parser in every plot, in the registry's order.
    colour = {p: f"C{i}" for i, p in enumerate(d["parsers"])}
    times = d["times"].get("parse", {})
    if times:
        kinds = sorted({d["pages"][p]["kind"] for _, p in times})
        parsers = [p for p in d["parsers"] if any(x == p for x, _ in times)]
        fig, ax = plt.subplots(figsize=(max(8, 1.3 * len(kinds)), 4.8))
        w = 0.8 / max(len(parsers), 1)
        for i, parser in enumerate(parsers):
            vals = [_median([times[(parser, p)] / (d["pages"][p]["bytes"] / 1e6) for (x, p) in times
                             if x == parser and d["pages"][p]["kind"] == k]) for k in kinds]
            ax.bar([j + i * w for j in range(len(kinds))], [v * 1e3 if v else 0 for v in vals], w,
                   label=_label(d, parser), color=colour[parser])
        ax.set_yscale("log")
        ax.set_xticks([j + 0.4 - w / 2 for j in range(len(kinds))], kinds, rotation=20)
        ax.set_ylabel("parse time, ms per MB (median over pages, log)")
        ax.set_title("Parse time per corpus kind (lower is better)")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        save(fig, "parse_by_kind")

    t, m = scaling_series(d)
    for name, series, ylabel, scale in (("scaling_time", t, "parse time (s)", 1),
                                        ("scaling_memory", m, "retained memory per document (MB)", 1e-6)):
        if not series:
            continue
        fig, ax = plt.subplots(figsize=(7.5, 5))
        for parser in [p for p in d["parsers"] if p in series]:
            pts = [(x, y) for x, y in series[parser] if y > 0]
            if not pts:
                continue
            slope = fit_slope(pts)
            ax.plot([x for x, _ in pts], [y * scale for _, y in pts], marker="o", color=colour[parser],
                    label=f"{_label(d, parser)} (slope {slope:.2f})" if slope else _label(d, parser))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("page size (bytes)")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{ylabel.split(' (')[0].capitalize()} vs size (log-log; slope 1 = linear)")
        ax.legend(fontsize=7)
        save(fig, name)

    mem = d["mem"].get("memory", {})
    if mem:
        parsers = [p for p in d["parsers"] if any(x == p for x, _ in mem)]
        vals = [_median([v["retained"] / v["bytes"] for (x, _), v in mem.items() if x == p]) or 0 for p in parsers]
        fig, ax = plt.subplots(figsize=(7.5, 4.5))
        ax.bar([_label(d, p) for p in parsers], [max(v, 1e-3) for v in vals], color=[colour[p] for p in parsers])
        ax.set_yscale("log")
        ax.set_ylabel("retained memory / page bytes (median, log)")
        ax.set_title("Memory kept per parsed document (lower is better)")
        ax.tick_params(axis="x", rotation=30)
        save(fig, "memory")


def load_all(raws: list[Path]) -> dict:
    """One raw folder loaded, or several runs of the same code pooled (see pool)."""
    runs = [load(Path(r)) for r in raws]
    return runs[0] if len(runs) == 1 else pool(runs)


def render(raw: Path | list[Path] | None, out: Path | None) -> Path:
    root = project_root()
    raws = [Path(r) for r in ([raw] if isinstance(raw, (str, Path)) else raw or [])] or [newest_raw(root)]
    out = Path(out) if out else root / "results"
    tables, plot_dir = out / "tables", out / "plots"
    tables.mkdir(parents=True, exist_ok=True)
    plot_dir.mkdir(parents=True, exist_ok=True)
    d = load_all(raws)
    headline(d, tables)
    for task in ("parse", "extract", "links", "select", "css", "css-alone"):
        task_tables(d, task, tables)
    linear_table(d, tables)
    memory_table(d, tables)
    scaling_table(d, tables)
    plots(d, plot_dir)
    (out / "tables" / "SOURCE").write_text("".join(f"rendered from {r}\n" for r in raws))
    print(f"tables: {tables}\nplots:  {plot_dir}")
    return out
