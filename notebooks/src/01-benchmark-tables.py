# %% [markdown]
# # Benchmark tables
#
# This notebook reads the raw results of `python -m fastparse.bench run` (pyperf JSON
# under `results/raw/<date>_<sha>_<host>/`, written once and never edited) and rebuilds
# the tables and plots from them. It never times anything itself, except the last cell,
# which runs a small `--quick` benchmark live to set fresh figures beside the committed
# ones. The definitions are `fastparse.bench.render`'s: a page's time is the median of
# its pyperf values (when the committed tables pool several runs of the same code, the
# median of the runs' times); a ratio is computed per page, then the median taken over pages.

# %%
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

from fastparse import workbench as wb
from fastparse.bench import render

QUICK = wb.quick()
RAWS = wb.results_runs()
RAW = RAWS[-1] if RAWS else None
if RAW is None:
    # No committed run yet: make a small one, so the notebook has something to read.
    RAW = Path(tempfile.mkdtemp()) / "raw"
    few = ["--parsers", "fastparse,floor,lxml,selectolax"] if QUICK else []
    subprocess.run([sys.executable, "-m", "fastparse.bench", "run", "--quick", "--allow-mismatch",
                    "--tasks", "parse,links,memory,scaling", "--out", str(RAW), *few],
                   check=True, capture_output=True)
    print("no results/raw in this checkout: reading a fresh --quick run instead")
    RAWS = [RAW]
D = render.load_all(RAWS)
RUN = D["run"]
print("raw results:", ", ".join(r.name for r in RAWS))

# %% [markdown]
# ## The run
#
# Where and how the results were measured, and the library versions (all recorded in
# `run.json` by the run itself).

# %%
pd.Series({"host": RUN["host"], "platform": RUN["platform"], "python": RUN["python"].split()[0],
           "git": RUN["git_sha"], "started": RUN["started"], "quick": RUN["quick"], "corpus": RUN["corpus"],
           "pages": len(D["pages"]), "tasks": ", ".join(RUN["tasks"]),
           "wrong outputs found": len(RUN["findings"])}, name="run").to_frame()

# %%
LABEL = {p: v["label"] for p, v in RUN["parsers"].items()}
PARSERS = list(RUN["parsers"])
pd.DataFrame({LABEL[p]: {"versions": ", ".join(f"{k} {v}" for k, v in RUN["parsers"][p]["versions"].items()),
                         "tasks": ", ".join(RUN["parsers"][p]["tasks"])} for p in PARSERS}).T


# %% [markdown]
# Every timed value as one long table: task, parser, page, the page's kind and size,
# the median time, and whether the output was wrong (a wrong page is shown, never used
# in a median).

# %%
def times_frame(d) -> pd.DataFrame:
    rows = [{"task": task, "parser": parser, "page": page, "seconds": t,
             "kind": d["pages"].get(page, {}).get("kind", "scaling"),
             "bytes": d["pages"].get(page, {}).get("bytes") or int(page.rsplit("/", 1)[1]),
             "wrong": (task, parser, page) in d["wrong"]}
            for task, by in d["times"].items() for (parser, page), t in by.items()]
    return pd.DataFrame(rows)


T = times_frame(D)
T.groupby(["task", "parser"]).size().unstack(fill_value=0).rename(columns=LABEL)

# %% [markdown]
# ## Parse-only time per corpus kind
#
# Milliseconds per megabyte of page, median over the pages of each kind (lower is
# better).

# %%
parse = T[(T.task == "parse") & ~T.wrong].copy()
parse["ms_per_mb"] = parse.seconds * 1e3 / (parse.bytes / 1e6)
by_kind = parse.pivot_table(index="parser", columns="kind", values="ms_per_mb", aggfunc="median")
by_kind = by_kind.reindex([p for p in PARSERS if p in by_kind.index]).rename(index=LABEL)
by_kind.style.set_uuid("by_kind").format("{:.1f}").background_gradient(
    cmap="RdYlGn_r", axis=None, gmap=np.log10(by_kind)).set_caption("parse time, ms per MB (median over pages)")


# %% [markdown]
# The same as ratios: each page's time divided by fastparse's (and by the memchr floor's,
# the time to find every `<` and nothing else), then the median over the pages of a kind.
# Above 1 is slower than fastparse.

# %%
def ratios(frame, base) -> pd.DataFrame:
    wide = frame.pivot_table(index="page", columns="parser", values="seconds")
    if base not in wide:
        return pd.DataFrame()
    rel = wide.div(wide[base], axis=0)
    rel["kind"] = rel.index.map(frame.drop_duplicates("page").set_index("page").kind)
    out = rel.groupby("kind").median().T
    out["all pages"] = rel.drop(columns="kind").median()
    return out.reindex([p for p in PARSERS if p in out.index]).rename(index=LABEL)


def ratio_style(df, uuid, caption):
    return df.style.set_uuid(uuid).format("{:.2f}×", na_rep="–").background_gradient(
        cmap="RdYlGn_r", axis=None, gmap=np.log10(df.astype(float)), vmin=-1.5, vmax=1.5).set_caption(caption)


ratio_style(ratios(parse, "fastparse"), "x_fp", "parse time × fastparse (median over pages)")

# %%
ratio_style(ratios(parse, "floor"), "x_floor", "parse time × the memchr floor (median over pages)")

# %% [markdown]
# Plotted per kind on a log scale, since the parsers span orders of magnitude:

# %%
fig, ax = plt.subplots(figsize=(9, 4.5))
by_kind.T.plot.bar(ax=ax, width=0.85)
wb.log_axes(ax, x=False)
ax.set_xlabel("corpus kind")
ax.set_ylabel("parse time, ms per MB (log)")
ax.set_title("Parse time per corpus kind (lower is better)")
ax.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
ax.tick_params(axis="x", rotation=20)
plt.tight_layout()

# %% [markdown]
# ## Full tasks
#
# Parsing plus the work people parse for: extracting the page's records (`extract`),
# every link with its text (`links`), a set of CSS selectors (`select`), 20 typical
# scraping selectors on every real page (`css`), and the same 20 on a document parsed
# beforehand (`css-alone`: the selector engines alone). Time × fastparse, median over
# pages, per task.

# %%
tasks = [t for t in ("parse", "extract", "links", "select", "css", "css-alone") if t in set(T.task)]
full = pd.DataFrame({t: ratios(T[(T.task == t) & ~T.wrong], "fastparse")["all pages"] for t in tasks})
full = full.reindex([LABEL[p] for p in PARSERS if LABEL[p] in full.index])
ratio_style(full, "tasks", "time × fastparse, median over pages (– : task not supported or not run)")

# %% [markdown]
# ## Memory per document
#
# Resident memory kept per parsed document (several parsed copies alive, a fresh process
# per page) and the peak during one parse, each divided by the page's size; median over
# pages.

# %%
M = pd.DataFrame([{"parser": p, "page": page, **m} for (p, page), m in D["mem"].get("memory", {}).items()])
if len(M):
    M["retained / bytes"] = M.retained / M.bytes
    M["peak / bytes"] = M.peak / M.bytes
    fp_ret = M[M.parser == "fastparse"].set_index("page").retained
    M["retained × fastparse"] = M.retained / M.page.map(fp_ret)
    mem = M.groupby("parser")[["retained / bytes", "peak / bytes", "retained × fastparse"]].median()
    mem = mem.reindex([p for p in PARSERS if p in mem.index]).rename(index=LABEL)
    display(mem.style.set_uuid("mem").format("{:.2f}").background_gradient(
        cmap="RdYlGn_r", axis=None, gmap=np.log10(mem.clip(lower=1e-3))).set_caption(
        f"memory, median over pages ({M.copies.min():.0f} to {M.copies.max():.0f} copies alive per page)"))
else:
    print("this run has no memory task")

# %%
if len(M):
    fig, ax = plt.subplots(figsize=(8, 4))
    mem["retained / bytes"].clip(lower=1e-3).plot.bar(ax=ax)
    wb.log_axes(ax, x=False)
    ax.set_xlabel("parser")
    ax.set_ylabel("retained memory / page bytes (log)")
    ax.set_title("Memory kept per parsed document (lower is better)")
    ax.tick_params(axis="x", rotation=30)
    plt.tight_layout()

# %% [markdown]
# ## Time and memory against page size
#
# Every page of the parse task, time against size on log-log axes, with the least-squares
# slope of log(time) on log(size) per parser (1 = time grows in proportion to size).
# Pages differ in content as well as size, so the scaling sweep below is the cleaner test.

# %%
def slope_text(points) -> str:
    slope = render.fit_slope(points)
    return "–" if slope is None else f"{slope:.2f}"


fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
for p in PARSERS:
    s = parse[parse.parser == p]
    if len(s) >= 2:
        left.scatter(s.bytes, s.seconds, s=12, label=f"{LABEL[p]} ({slope_text(list(zip(s.bytes, s.seconds)))})")
    if len(M) and (M.parser == p).sum() >= 2:
        m = M[M.parser == p]
        right.scatter(m.bytes, m.retained / 1e6, s=12,
                      label=f"{LABEL[p]} ({slope_text(list(zip(m.bytes, m.retained)))})")
for ax, ylabel in ((left, "parse time, s"), (right, "retained memory, MB")):
    wb.log_axes(ax)
    ax.set_xlabel("page size (bytes, log)")
    ax.set_ylabel(ylabel + " (log)")
    ax.legend(fontsize=7, title="slope", title_fontsize=7)
left.set_title("Parse time vs page size")
right.set_title("Retained memory vs page size")
plt.tight_layout()

# %% [markdown]
# ## The scaling sweep
#
# One synthetic article at sizes from tens of kilobytes up, the same content mix at every
# size; slopes of log(time) and log(retained memory) on log(size), and time per MB at
# each size. A parser is stopped at the size where the next would exceed the run's cap.

# %%
st, sm = render.scaling_series(D)
if st:
    sizes = sorted({s for v in st.values() for s, _ in v})
    sweep = pd.DataFrame({LABEL[p]: {"time slope": render.fit_slope(st[p]),
                                     "memory slope": render.fit_slope(sm.get(p, [])) if sm.get(p) else None,
                                     **{f"ms/MB @ {s:,} B": dict(st[p]).get(s, np.nan) * 1e3 / (s / 1e6)
                                        for s in sizes}} for p in PARSERS if p in st}).T
    display(sweep.style.set_uuid("sweep").format("{:.2f}", na_rep="–").background_gradient(
        cmap="RdYlGn_r", subset=["time slope", "memory slope"], vmin=0.8, vmax=1.6))
else:
    print("this run has no scaling task")

# %%
if st:
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, series, ylabel, scale in ((axes[0], st, "parse time, s", 1), (axes[1], sm, "retained memory, MB", 1e-6)):
        for p in [p for p in PARSERS if p in series]:
            pts = [(x, y) for x, y in series[p] if y > 0]
            if pts:
                ax.plot([x for x, _ in pts], [y * scale for _, y in pts], marker="o", label=LABEL[p])
        wb.log_axes(ax)
        ax.set_xlabel("page size (bytes, log)")
        ax.set_ylabel(ylabel + " (log)")
        ax.legend(fontsize=7)
    axes[0].set_title("Scaling sweep: time (slope 1 = linear)")
    axes[1].set_title("Scaling sweep: memory")
    plt.tight_layout()

# %% [markdown]
# ## The README's tables
#
# `render` writes the Markdown tables the README quotes. Rendering them again from the
# same raw folders must give the committed files byte for byte; the headline table:

# %%
fresh = Path(tempfile.mkdtemp())
render.headline(D, fresh)
committed = wb.repo_root() / "results" / "tables" / "headline.md"
same_raw = [r.name for r in wb.tables_source()] == [r.name for r in RAWS]
if committed.exists() and same_raw:
    print("committed results/tables/headline.md is reproduced exactly:",
          committed.read_text() == (fresh / "headline.md").read_text())
else:
    print("no committed table rendered from this raw folder to compare with")
Markdown((fresh / "headline.md").read_text())

# %% [markdown]
# ## Live: a fresh `--quick` run
#
# The only cell that measures: a small parse-only run on this machine, now (in the tests'
# quick mode, four parsers). Its ratios to fastparse beside the committed ones; the
# absolute times differ with the machine, the ratios should be close.

# %%
live_dir = Path(tempfile.mkdtemp()) / "live"
few = ["--parsers", "fastparse,floor,lxml,selectolax"] if QUICK else []
subprocess.run([sys.executable, "-m", "fastparse.bench", "run", "--quick", "--allow-mismatch", "--tasks", "parse",
                "--out", str(live_dir), *few], check=True, capture_output=True)
LIVE = render.load(live_dir)
live = times_frame(LIVE)
live = live[(live.task == "parse") & ~live.wrong]
pages = set(live.page)
side = pd.DataFrame({"committed × fastparse": ratios(parse[parse.page.isin(pages)], "fastparse")["all pages"],
                     "live × fastparse": ratios(live, "fastparse")["all pages"]}).dropna()
ratio_style(side, "live", f"parse, median over the {len(pages)} pages both runs have")
