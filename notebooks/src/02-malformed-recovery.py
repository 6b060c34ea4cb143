# %% [markdown]
# # How parsers recover from broken HTML
#
# Browsers never reject a page: the HTML Standard says, tag by tag, how a broken
# document becomes a tree. This notebook puts the trees that Python's HTML parsers build
# side by side, for hand-written malformed snippets and for the Standard's own
# tree-construction tests (html5lib-tests), and measures how far each one is from the
# spec. Every tree is reduced to the same *neutral* outline by `fastparse.conformance`
# (its docstring gives the rules): element names and nesting, with elements that have
# no start tag in the input (implied `<html>`, `<tbody>`...) spliced out, because a
# flat index of real tags never invents them.

# %%
import time
from html import escape

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import HTML, Markdown, display

import fastparse as fp
from fastparse import conformance as C
from fastparse import workbench as wb
from fastparse.bench import adapters
from fastparse.bench.render import fit_slope

QUICK = wb.quick()
ADAPTERS = C.installed_tree_adapters()
PARSERS = [p for p in wb.RECOVERY_PARSERS if p in ADAPTERS]
print(f"quick mode: {QUICK}; parsers: {', '.join(PARSERS)}")

# %% [markdown]
# ## Conformance on the tree-construction tests
#
# First, every parser runs the Standard's tree-construction tests (all of them, or every
# sixth case in quick mode). Three scores per case, as defined in `fastparse.conformance`:
# **exact** (the spliced outline is identical), **parent** (each element sits under the
# same parent as in the spec) and **text** (the same text, whitespace collapsed).

# %%
ALL_CASES = C.read_tree_cases() if C.TREE_DIR.is_dir() else []
CASES = ALL_CASES[::6] if QUICK else ALL_CASES
RESULTS = {}
for name in PARSERS:
    t0 = time.perf_counter()
    RESULTS[name] = C.run_tree_suite(ADAPTERS[name], CASES)
    RESULTS[name + " seconds"] = time.perf_counter() - t0
overall = pd.DataFrame(
    {name: vars(C.figures(RESULTS[name])) for name in PARSERS}).T[["cases", "skipped", "exact", "parent", "text"]]
overall[["exact", "parent", "text"]] *= 100
overall.style.set_uuid("overall").format({"cases": "{:.0f}", "skipped": "{:.0f}", "exact": "{:.1f}%", "parent": "{:.2f}%", "text": "{:.1f}%"}) \
    .background_gradient(subset=["exact", "parent", "text"], cmap="RdYlGn", vmin=60, vmax=100) \
    .set_caption(f"{len(CASES)} tree-construction cases from html5lib-tests")

# %% [markdown]
# The snippets below have no expected tree of their own, so the parser that matches the
# spec's trees most often serves as the reference for them (ties go to the first in the
# list); its score is in the table above.

# %%
spec_like = [p for p in ("turbohtml", "selectolax", "html5lib") if p in RESULTS]
REFERENCE = max(spec_like, key=lambda p: C.figures(RESULTS[p]).exact) if CASES else spec_like[0]
ref_exact = 100 * C.figures(RESULTS[REFERENCE]).exact if CASES else float("nan")
Markdown(f"Reference for the snippets: **{REFERENCE}**, exact on {ref_exact:.1f}% of the spec's trees.")

# %% [markdown]
# ## The malformed snippets, side by side
#
# Each table shows one snippet: the reference's outline first, then every parser's,
# indented by depth. Rows where a parser leaves the reference are red. In the fastparse
# column each element also says how it was closed when that was not its own end tag:
# `implied` (a sibling's start tag closed it), `parent-end` (its parent's end tag did),
# `eof` (still open at the end). The snippets come from `../shared/corpora/malformed`;
# without that folder a few written here are used.

# %%
SNIPPETS = wb.malformed_cases() or [
    {"id": "li-unclosed", "category": "implicit-close", "html": "<ul><li>one<li>two</ul><p>after",
     "note": "A new <li> closes the open one."},
    {"id": "misnested-b-i", "category": "adoption-agency", "html": "<p><b>bold<i>both</b>italic</i></p>",
     "note": "The adoption agency clones <i> after </b>."},
    {"id": "table-stray-text", "category": "foster-parenting", "html": "<table>stray<tr><td>cell</table>",
     "note": "Text inside <table> is moved before it."},
    {"id": "deep-div-10k", "category": "pathological", "html": "<div>", "repeat": 10000, "suffix": "deep",
     "note": "10000 nested unclosed <div>."},
    {"id": "nested-a-10k", "category": "pathological", "html": "<a>x", "repeat": 10000,
     "note": "Each <a> runs the adoption agency for the previous one."},
]
SMALL = [c for c in SNIPPETS if c["category"] != "pathological"]
PATHOLOGICAL = [c for c in SNIPPETS if c["category"] == "pathological"]
print(f"{len(SMALL)} snippets, {len(PATHOLOGICAL)} pathological inputs")


# %%
def rows_for(name, case):
    """A parser's outline rows for a TreeCase (fastparse with closed_by), or why it has none."""
    try:
        if name == "fastparse" and case.context is None:
            return wb.fastparse_rows(fp.parse(case.data, scripting=bool(case.scripting)), case.data)
        return wb.outline_rows(ADAPTERS[name](case), case.data)
    except C.Skip as exc:
        return f"skipped: {exc}"


def show_case(case, title, expected=None):
    """One side-by-side table; the spec's tree as the first column when it is known."""
    columns = {"spec": wb.outline_rows(expected, case.data)} if expected else {}
    ref = "spec" if expected else REFERENCE
    order = [REFERENCE] + [p for p in PARSERS if p != REFERENCE] if not expected else PARSERS
    columns.update({p: rows_for(p, case) for p in order})
    display(HTML(f"<h4>{title}</h4><code>{escape(case.data[:200])}</code>"),
            HTML(wb.side_by_side(columns, ref)))


# %%
for i, snip in enumerate(SMALL[:8] if QUICK else SMALL):
    case = C.TreeCase("malformed", i + 1, snip["html"], [])
    show_case(case, f"{snip['id']} ({snip['category']}): {escape(snip.get('note', ''))}")

# %% [markdown]
# The same comparison as a matrix: ✓ where the parser's outline equals the reference's.

# %%
def agrees(name, case, ref_rows):
    rows = rows_for(name, case)
    return None if isinstance(rows, str) else [r[:2] for r in rows] == [r[:2] for r in ref_rows]


matrix = {}
for i, snip in enumerate(SMALL):
    case = C.TreeCase("malformed", i + 1, snip["html"], [])
    ref_rows = rows_for(REFERENCE, case)
    matrix[snip["id"]] = {p: agrees(p, case, ref_rows) for p in PARSERS if p != REFERENCE}
snip_df = pd.DataFrame(matrix).T
snip_df.style.set_uuid("snippets").format(lambda v: "–" if v is None else "✓" if v else "✗") \
    .map(lambda v: "background:#e6f4ea" if v else "background:#fdd" if v is not None else "") \
    .set_caption(f"outline equals {REFERENCE}'s ({len(SMALL)} snippets)")

# %%
Markdown("Snippets that agree with the reference, per parser: " + ", ".join(
    f"**{p}** {int(snip_df[p].fillna(False).sum())}/{len(snip_df)}" for p in snip_df.columns))

# %% [markdown]
# ## A sample of the Standard's tests, against the spec's own tree
#
# For each recovery category (defined by the input text in `workbench.CATEGORY_RULES`),
# the shortest document case on which at least two parsers build something other than
# the spec's tree. Here the first column is the tree the test expects.

# %%
def disagreeing(case_index):
    return sum(1 for p in PARSERS if RESULTS[p][case_index].score is not None
               and not RESULTS[p][case_index].score.exact)


sample = {}
for cat in wb.CATEGORY_RULES:
    found = [(len(c.data), i) for i, c in enumerate(CASES)
             if c.context is None and cat in wb.categories(c.data) and disagreeing(i) >= 2
             and len(c.data) <= 90 and i not in sample.values()]
    if found:
        sample[cat] = min(found)[1]
for cat, i in sample.items():
    case = CASES[i]
    show_case(case, f"{cat}: {case.id}", expected=C.expected_tree(case))

# %% [markdown]
# ## Agreement with the spec by category
#
# The share of cases in each category whose outline is exactly the spec's. A case counts
# in every category its input falls in, so the columns overlap; the column labels give
# the number of cases.

# %%
cats = list(wb.CATEGORY_RULES)
case_cats = [wb.categories(c.data) for c in CASES]
heat = pd.DataFrame(index=PARSERS, columns=cats, dtype=float)
for p in PARSERS:
    for cat in cats:
        scored = [r.score.exact for r, cs in zip(RESULTS[p], case_cats) if cat in cs and r.score is not None]
        heat.loc[p, cat] = 100 * sum(scored) / len(scored) if scored else float("nan")
counts = {cat: sum(cat in cs for cs in case_cats) for cat in cats}

fig, ax = plt.subplots(figsize=(9, 4.2))
im = ax.imshow(heat.values.astype(float), cmap="RdYlGn", vmin=40, vmax=100, aspect="auto")
ax.set_xticks(range(len(cats)), [f"{c}\n({counts[c]})" for c in cats], fontsize=8, rotation=25, ha="right")
ax.set_yticks(range(len(PARSERS)), PARSERS)
for (r, c), v in pd.DataFrame(heat.values).stack().items():
    ax.text(c, r, f"{v:.0f}", ha="center", va="center", fontsize=8)
ax.set_xlabel("recovery category (cases)")
ax.set_ylabel("parser")
ax.set_title("Exact agreement with the spec's tree, % of cases")
fig.colorbar(im, ax=ax, label="% exact")
plt.tight_layout()

# %% [markdown]
# fastparse never clones or inserts an element, so cases where the spec clones one
# (the adoption agency, reconstructing formatting elements) cannot be exact for it;
# `conformance.expected_difference` finds them. Its exact score on the other cases:

# %%
rest = [r for r in RESULTS["fastparse"] if not C.expected_difference(r.case)]
cloned = len(RESULTS["fastparse"]) - len(rest)
Markdown(f"{cloned} of {len(CASES)} cases need a clone; on the other {len(rest)}, fastparse is exact on "
         f"{100 * C.figures(rest).exact:.1f}% and agrees on parents for {100 * C.figures(rest).parent:.2f}%.")

# %% [markdown]
# ## The per-file scores
#
# The conformance test's figures per `.dat` file (exact %), one column per parser.

# %%
per_file = pd.DataFrame({p: {f: 100 * v.exact for f, v in C.per_file(RESULTS[p]).items()} for p in PARSERS})
per_file["cases"] = pd.Series({f: v.cases + v.skipped for f, v in C.per_file(RESULTS["fastparse"]).items()})
per_file = per_file[["cases"] + PARSERS]
per_file.style.set_uuid("per_file").format("{:.0f}", subset=PARSERS).background_gradient(
    subset=PARSERS, cmap="RdYlGn", vmin=40, vmax=100, axis=None).set_caption("exact % per file")

# %% [markdown]
# ## Pathological inputs: time against size
#
# Each pathological input repeats one unit many times (nested `<div>`, unclosed `<p>`,
# unclosed `<a>`...). Each parser parses growing prefixes of it (best of three); a line
# on a log-log plot with slope 1 is linear time, slope 2 quadratic. A parser whose next
# size would take longer than the cap is stopped there. fastparse refuses to nest deeper
# than `max_depth` (it raises `ParseLimitError` rather than silently dropping content),
# so here it runs with the largest setting.

# %%
CAP = 0.25 if QUICK else 2.0
FRACTIONS = (1 / 128, 1 / 64, 1 / 32) if QUICK else (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1)
BENCH = {p: adapters.load(p) for p in PARSERS}
PARSE = {p: a.parse for p, a in BENCH.items()}
PARSE["fastparse"] = lambda data: fp.parse(data, max_depth=65535)


def best_time(parse, data, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        parse(data)
        best = min(best, time.perf_counter() - t0)
        if best > CAP / 4:
            break
    return best


timings = []
for case in PATHOLOGICAL:
    for p, parse in PARSE.items():
        prev = None
        for frac in FRACTIONS:
            n = max(1, int(case["repeat"] * frac))
            if prev and prev[1] * (n / prev[0]) ** 2 > CAP:
                break
            data = wb.case_input({**case, "repeat": n}).encode()
            t = best_time(parse, data)
            timings.append({"case": case["id"], "parser": p, "units": n, "bytes": len(data), "seconds": t})
            prev = (n, t)
timings = pd.DataFrame(timings)
print(f"{len(timings)} measurements")

# %%
ncols = min(3, len(PATHOLOGICAL))
nrows = -(-len(PATHOLOGICAL) // ncols)
fig, axes = plt.subplots(nrows, ncols, figsize=(4.5 * ncols, 3.8 * nrows), sharey=True, squeeze=False)
for ax, case in zip(axes.flat, PATHOLOGICAL):
    sub = timings[timings.case == case["id"]]
    for p in PARSERS:
        s = sub[sub.parser == p]
        ax.plot(s.bytes, s.seconds, marker="o", label=p)
    wb.log_axes(ax)
    ax.set_title(case["id"], fontsize=10)
    ax.set_xlabel("input size (bytes, log)")
for row in axes:
    row[0].set_ylabel("parse time, s (best of 3, log)")
for ax in axes.flat[len(PATHOLOGICAL):]:
    ax.axis("off")
axes.flat[0].legend(fontsize=7)
plt.tight_layout()

# %% [markdown]
# The fitted slopes (log time on log size): near 1 is linear; near 2 means the parser goes
# quadratic on that input. Blank: too few sizes under the cap.

# %%
slopes = timings.groupby(["parser", "case"]).apply(
    lambda g: fit_slope(list(zip(g.bytes, g.seconds))) if len(g) >= 2 else None, include_groups=False).unstack()
slopes = slopes.reindex(PARSERS)
slopes.style.set_uuid("slopes").format(lambda v: "" if pd.isna(v) else f"{v:.2f}").background_gradient(
    cmap="RdYlGn_r", vmin=0.8, vmax=2.0, axis=None).set_caption("slope of log(time) vs log(size)")

# %% [markdown]
# Speed is not the only failure: some parsers silently drop content. At the largest size
# each parser reached, how many of the repeated elements it kept, and whether the text
# after the last unit survived.

# %%
kept = []
for case in PATHOLOGICAL:
    name = case["html"].strip("<>").split(">")[0]
    sub = timings[timings.case == case["id"]]
    for p, adapter in BENCH.items():
        n = int(sub[sub.parser == p].units.max())
        doc = PARSE[p](wb.case_input({**case, "repeat": n}).encode())
        text = adapter.text(doc) or ""
        kept.append({"case": case["id"], "parser": p, "units": n,
                     "elements kept %": 100 * len(adapter.all(doc, adapters.Q(name))) / n,
                     "text kept %": 100 * (text.count("x") / n if "x" in case["html"]
                                           else float(case.get("suffix", "") in text))})
kept = pd.DataFrame(kept).pivot(index="parser", columns="case",
                               values=["elements kept %", "text kept %"]).reindex(PARSERS)
kept.style.set_uuid("kept").format("{:.0f}").background_gradient(cmap="RdYlGn", vmin=0, vmax=100, axis=None) \
    .set_caption("% of the repeated elements, and of the text, each parser kept")

# %% [markdown]
# lxml (libxml2) refuses to nest deeper than a fixed depth and drops everything below it,
# text included. The depth it stops at, measured on the nested `<div>` input:

# %%
deep = next((c for c in PATHOLOGICAL if c["html"] == "<div>"), None)
if deep and "lxml" in BENCH:
    import lxml.html
    root = lxml.html.document_fromstring(wb.case_input({**deep, "repeat": 1000}).encode())
    depth = {root: 1}
    for el in root.iter():
        for child in el:
            depth[child] = depth[el] + 1
    lost = deep.get("suffix", "") not in root.text_content()
    print(f"lxml: deepest element at depth {max(depth.values())} (html = 1) of 1,000 nested <div>; "
          f"text after them lost: {lost}")
