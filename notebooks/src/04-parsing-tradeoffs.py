# %% [markdown]
# # Parsing trade-offs, measured
#
# A teaching notebook: five design choices behind fastparse, each measured here rather
# than asserted. (1) What a DOM costs compared with a flat index of elements. (2) Four
# ways to handle implied end tags (`<li>` and `<p>` without their end tags). (3) Linear
# against quadratic end-tag matching. (4) Why raw text and quoted attribute values are
# skipped as blocks. (5) Parsing bytes without decoding them. Timings are taken live, so
# they vary a little from run to run; the conclusions should not.

# %%
import ctypes
import gc
import re
import time
import tracemalloc

import matplotlib.pyplot as plt
import pandas as pd
import psutil
from IPython.display import Markdown

import fastparse as fp
from fastparse import encoding as fpenc
from fastparse import workbench as wb
from fastparse.bench import adapters
from fastparse.bench.render import fit_slope
from fastparse import corpora
from fastparse.corpora import generated

QUICK = wb.quick()
PAGE = generated.build("books")[0]                   # the generated catalogue page
PAGE_NO_END = generated.build("books-no-end-li-p")[0]  # the same page without </li> and </p>
N_ELEMENTS = len(fp.parse(PAGE))
print(f"catalogue page: {len(PAGE):,} bytes, {N_ELEMENTS:,} elements; without </li></p>: {len(PAGE_NO_END):,} bytes")


def best_of(fn, repeat=5):
    """Best wall time of `repeat` calls, seconds (the least disturbed run); calls slower
    than a quarter second are not repeated."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
        if best > 0.25:
            break
    return best


# %% [markdown]
# ## 1. What a DOM costs
#
# A DOM parser builds one object per element, per text node and per attribute, linked
# both ways. fastparse keeps one fixed-size record per element in a flat array and
# slices text and attributes out of the source when asked. The record is `fp_elem` in
# `fastparse/_core/fp.h`; its size, read from the header:

# %%
header = (wb.repo_root() / "fastparse" / "_core" / "fp.h").read_text()
struct = re.search(r"typedef struct \{(.*?)\} fp_elem;", header, re.S).group(1)
SIZES = {"uint8_t": 1, "uint16_t": 2, "int32_t": 4, "uint32_t": 4}
fields = [(m.group(2), m.group(1), SIZES[m.group(1)]) for m in re.finditer(r"(\w+_t)\s+(\w+);", struct)]
ELEM_BYTES = sum(size for _, _, size in fields)
pd.DataFrame(fields, columns=["field", "type", "bytes"]).set_index("field").T

# %%
Markdown(f"One element costs **{ELEM_BYTES} bytes** in the index, whatever its attributes or text.")

# %% [markdown]
# Now the measured cost. Each parser keeps several parsed copies of the catalogue page
# (concatenated ten times, so the growth is well above the allocator's noise; quick mode
# uses the page once) alive; the growth of the process's resident memory (RSS, which sees C heaps too),
# divided by copies and by the page's element count, is the memory per element.
# `tracemalloc` counts the Python-level allocations (objects, strings, dicts) per element
# — near zero for parsers whose tree lives in C.

# %%
COPIES = 2 if QUICK else 5
BIG = generated.build("books" if QUICK else "books.x10")[0]
BIG_ELEMENTS = len(fp.parse(BIG))
PARSERS = [p for p in ("fastparse", "selectolax", "turbohtml", "lxml", "bs4-lxml", "bs4-html.parser", "html5lib")
           if p in adapters.available([p])[0]]


def rss():
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)   # give freed arenas back, so RSS counts live data
    except (OSError, AttributeError):
        pass
    return psutil.Process().memory_info().rss


def dom_cost(name):
    adapter = adapters.load(name)
    adapter.parse(PAGE)                    # warm up: imports, caches
    before = rss()
    tracemalloc.start()
    docs = [adapter.parse(BIG) for _ in range(COPIES)]
    traced = tracemalloc.take_snapshot().statistics("filename")
    tracemalloc.stop()
    grown = rss() - before
    del docs
    per = COPIES * BIG_ELEMENTS
    return {"parser": name, "bytes / element (RSS)": grown / per,
            "Python allocations / element": sum(s.count for s in traced) / per,
            "Python bytes / element": sum(s.size for s in traced) / per}


cost = pd.DataFrame([dom_cost(p) for p in PARSERS]).set_index("parser")
cost.style.set_uuid("cost").format("{:.1f}").bar(subset=["bytes / element (RSS)"], color="#9ecae1") \
    .set_caption(f"{COPIES} copies of a {BIG_ELEMENTS:,}-element page alive")

# %%
fp_per = cost.loc["fastparse", "bytes / element (RSS)"]
# RSS misses memory a parser reuses from blocks freed earlier; tracemalloc misses C heaps:
# the larger of the two is the estimate for a DOM.
dom = cost.drop(index="fastparse")[["bytes / element (RSS)", "Python bytes / element"]].max(axis=1)
Markdown(f"fastparse keeps {fp_per:.0f} bytes per element, against {ELEM_BYTES} for the record itself (the array "
         f"doubles while parsing and is trimmed to the element count at the end, plus a little bookkeeping per "
         f"document; "
         f"RSS moves in 4 KiB pages). The DOMs keep "
         f"{dom.min():.0f} ({dom.idxmin()}) to {dom.max():.0f} ({dom.idxmax()}) bytes per element: "
         f"{dom.min() / fp_per:.1f}× to {dom.max() / fp_per:.0f}× fastparse's.")

# %% [markdown]
# ## 2. Four ways to handle implied end tags
#
# `<li>one<li>two` means two sibling items: the second `<li>` implies the end of the
# first. A parser can (a) apply **no rules** (the second `<li>` nests inside the first),
# (b) evaluate **rules in the main loop** for every tag, (c) run a **fast pass** with no
# rules and **re-parse locally** where the end tags do not match, or (d) **check when a
# tag opens**, looking up once per start tag whether its name implies an end.
#
# The small pure-Python models below run on the same token list (every start and end
# tag of the page) and produce, for each element, the index of its parent. The rules are
# the HTML Standard's for `li`, `dd`/`dt` and `p`, enough for this page.

# %%
TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)[^>]*>")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
CLOSES_P = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption",
            "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav",
            "ol", "p", "pre", "section", "table", "ul", "li", "dd", "dt"}
SCOPE = {"html", "table", "td", "th", "caption", "template", "button"}   # button scope
LIST_SCOPE = SCOPE | {"ol", "ul"}
# rule: (start tags that trigger it, element it closes, scope boundary)
RULES = [(CLOSES_P, {"p"}, SCOPE), ({"li"}, {"li"}, LIST_SCOPE), ({"dd", "dt"}, {"dd", "dt"}, SCOPE)]


def tokens(page: bytes):
    """(is_end, name) for every tag, raw-text contents skipped (the catalogue page has none)."""
    return [(m.group(1) == "/", m.group(2).lower()) for m in TAG.finditer(page.decode())]


class OpenElements:
    """The stack of open elements as (element index, name), with a count of open elements
    per name, so "is a <p> open at all?" is one dictionary lookup."""

    def __init__(self):
        self.items, self.count = [], {}

    def push(self, index, name):
        self.items.append((index, name))
        self.count[name] = self.count.get(name, 0) + 1

    def pop_to(self, k):
        for _, name in self.items[k:]:
            self.count[name] -= 1
        del self.items[k:]

    def close_in_scope(self, names, scope):
        """Pop up to the nearest element named in `names`, unless a scope boundary comes first."""
        for k in range(len(self.items) - 1, -1, -1):
            if self.items[k][1] in names:
                return self.pop_to(k)
            if self.items[k][1] in scope:
                return

    def end_tag(self, name):
        """An end tag closes its element and everything above it; a stray one is ignored."""
        if self.count.get(name):
            k = max(k for k, (_, n) in enumerate(self.items) if n == name)
            self.pop_to(k)


def build(toks, on_start):
    """The loop all four models share; on_start(open_elements, name) applies the rules."""
    parents, open_elements = [], OpenElements()
    for is_end, name in toks:
        if is_end:
            open_elements.end_tag(name)
            continue
        on_start(open_elements, name)
        parents.append(open_elements.items[-1][0] if open_elements.items else -1)
        if name not in VOID:
            open_elements.push(len(parents) - 1, name)
    return parents


# %% [markdown]
# (a) and (b): no rules at all, and the rules as the Standard words them — a start tag
# that closes a `<p>` walks the stack looking for one "in button scope", every time.

# %%
def no_rules(toks):
    return build(toks, lambda open_elements, name: None)


def rules_in_main_loop(toks):
    def on_start(open_elements, name):
        for triggers, closes, scope in RULES:
            if name in triggers:
                open_elements.close_in_scope(closes, scope)    # walks the stack
    return build(toks, on_start)


# %% [markdown]
# (d): when a tag opens, its name says which rules could apply (one lookup), and a rule
# walks the stack only if an element it could close is open at all (one count). fastparse
# goes one step further in C (`fastparse/_core/simulator.h`): per tag it keeps the topmost
# open element of that name, and per kind of scope the open boundary elements, so "is
# there a `<p>` in button scope?" is two lookups and never a walk.

# %%
TRIGGERS = {}
for triggers, closes, scope in RULES:
    for t in triggers:
        TRIGGERS.setdefault(t, []).append((closes, scope))


def check_when_opened(toks):
    def on_start(open_elements, name):
        for closes, scope in TRIGGERS.get(name, ()):
            if any(open_elements.count.get(c) for c in closes):
                open_elements.close_in_scope(closes, scope)
    return build(toks, on_start)


# %% [markdown]
# (c): a fast pass with no rules that notes every end tag that does not match the open
# element; when there is any, each top-level element holding one is parsed again, with
# the rules, and its subtree's parents replaced.

# %%
def fast_pass_and_reparse(toks):
    parents, open_elements, dirty, closed_at, start_tok = [], OpenElements(), set(), {}, []
    items = open_elements.items

    def holder():                      # the element under <body> holding the current position
        return items[min(2, len(items) - 1)][0]

    for pos, (is_end, name) in enumerate(toks):
        if is_end:
            if items and items[-1][1] != name:
                dirty.add(holder())
            if open_elements.count.get(name):
                k = max(k for k, (_, n) in enumerate(items) if n == name)
                closed_at.update((i, pos) for i, _ in items[k:])
                open_elements.pop_to(k)
            continue
        parents.append(items[-1][0] if items else -1)
        start_tok.append(pos)
        if name not in VOID:
            open_elements.push(len(parents) - 1, name)
    if items:                          # unclosed at the end: also a mismatch
        dirty.add(holder())
    for root in sorted(dirty):
        first, last = start_tok[root], closed_at.get(root, len(toks) - 1)
        local = check_when_opened(toks[first:last + 1])
        for k, p in enumerate(local):
            parents[root + k] = parents[root] if p < 0 else root + p
    return parents


# %% [markdown]
# Each model on both pages: time, and the share of elements whose parent is the one
# fastparse's HTML5 rules give (its index is in start-tag order, as the models' are).

# %%
MODELS = {"a. no rules": no_rules, "b. rules in the main loop": rules_in_main_loop,
          "c. fast pass + local re-parse": fast_pass_and_reparse, "d. check when a tag opens": check_when_opened}


def fp_parents(page, recovery="html5"):
    return [t.parent.index if t.parent else -1 for t in fp.parse(page, recovery=recovery)]


rows = []
for label, page in (("with </li></p>", PAGE), ("without </li></p>", PAGE_NO_END)):
    toks, truth = tokens(page), fp_parents(page)
    for model, fn in MODELS.items():
        got = fn(toks)
        assert len(got) == len(truth), "the models and fastparse must see the same start tags"
        rows.append({"page": label, "strategy": model, "ms": 1e3 * best_of(lambda: fn(toks)),
                     "parents as HTML5 %": 100 * sum(a == b for a, b in zip(got, truth)) / len(truth)})
    for rec in ("none", "html5"):
        got = fp_parents(page, rec)
        rows.append({"page": label, "strategy": f"fastparse C, recovery={rec!r}",
                     "ms": 1e3 * best_of(lambda: fp.parse(page, recovery=rec)),
                     "parents as HTML5 %": 100 * sum(a == b for a, b in zip(got, truth)) / len(truth)})
models = pd.DataFrame(rows).pivot(index="strategy", columns="page")
models.style.set_uuid("models").format("{:.2f}", subset="ms").format("{:.1f}", subset="parents as HTML5 %") \
    .background_gradient(subset="parents as HTML5 %", cmap="RdYlGn", vmin=50, vmax=100)

# %%
ms = models["ms"]
fig, ax = plt.subplots(figsize=(8, 3.6))
ms.plot.barh(ax=ax)
ax.set_xlabel("time per parse of the catalogue page, ms (best of 5, log)")
wb.log_axes(ax, y=False)
ax.set_ylabel("")
ax.set_title("Implied end tags: four strategies (Python models) and the C engine")
plt.tight_layout()

# %%
m = models["ms"]
C_HTML5, C_NONE = "fastparse C, recovery='html5'", "fastparse C, recovery='none'"
with_end, without = "with </li></p>", "without </li></p>"
Markdown(
    f"On the well-formed page the fast pass costs "
    f"{m.loc['c. fast pass + local re-parse', with_end] / m.loc['a. no rules', with_end]:.2f}× the no-rules "
    f"pass; without the end tags it must re-parse, and costs "
    f"{m.loc['c. fast pass + local re-parse', without] / m.loc['d. check when a tag opens', without]:.2f}× "
    f"checking when a tag opens. Walking the stack for every tag that could close a `<p>` costs "
    f"{m.loc['b. rules in the main loop', with_end] / m.loc['d. check when a tag opens', with_end]:.2f}× the "
    f"check of a count first. Without rules, "
    f"{100 - models['parents as HTML5 %'].loc['a. no rules', without]:.0f}% of the elements of the page without "
    f"end tags get the wrong parent. fastparse checks when a tag opens: its HTML5 recovery costs "
    f"{m.loc[C_HTML5, without] / m.loc[C_NONE, without]:.2f}× no recovery.")

# %% [markdown]
# ## 3. Linear against quadratic end-tag matching
#
# An end tag closes the nearest open element of its name. The obvious way searches the
# stack of open elements from the top; a stray end tag (no open element of that name)
# searches all of it. On `<span>` × n followed by `</i>` × n that is n searches of depth
# n: quadratic. Keeping a count of open elements per name answers "is one open?" in
# O(1), so a stray end tag costs nothing and a matching one pops only what it closes
# (fastparse links each open element to the next lower open one of the same name).

# %%
def match_by_search(toks):
    stack = []
    for is_end, name in toks:
        if not is_end:
            stack.append(name)
            continue
        for k in range(len(stack) - 1, -1, -1):
            if stack[k] == name:
                del stack[k:]
                break


def match_by_count(toks):
    stack, open_count = [], {}
    for is_end, name in toks:
        if not is_end:
            stack.append(name)
            open_count[name] = open_count.get(name, 0) + 1
            continue
        if open_count.get(name):
            while True:                      # each element is popped once: linear overall
                top = stack.pop()
                open_count[top] -= 1
                if top == name:
                    break


SIZES = (250, 500, 1000, 2000) if QUICK else (1000, 2000, 4000, 8000, 16000, 32000)
CAP = 0.3 if QUICK else 3.0          # a curve stops before a size that could take longer than this (s)
peers = {p: adapters.load(p) for p in ("selectolax", "html5lib") if p in PARSERS}
runners = {
    "search the stack (Python)": lambda toks, html: match_by_search(toks),
    "count per name (Python)": lambda toks, html: match_by_count(toks),
    "fastparse (C)": lambda toks, html: fp.parse(html, max_depth=65535),
    **{f"{p} (parse)": (lambda a: lambda toks, html: a.parse(html))(a) for p, a in peers.items()},
}
curves = {label: [] for label in runners}
for n in SIZES:
    toks = [(False, "span")] * n + [(True, "i")] * n
    html = ("<span>" * n + "</i>" * n).encode()
    for label, run in runners.items():
        if not curves[label] or curves[label][-1][1] * 4 < CAP:   # doubling n: at most 4x if quadratic
            curves[label].append((n, best_of(lambda: run(toks, html), 2)))

fig, ax = plt.subplots(figsize=(7, 4.5))
for label, points in curves.items():
    slope = fit_slope(points)
    ax.plot(*zip(*points), marker="o", label=f"{label}: slope " + ("–" if slope is None else f"{slope:.2f}"))
wb.log_axes(ax)
ax.set_xlabel("n (open <span> elements, then n stray </i>)")
ax.set_ylabel("time, s (log)")
ax.set_title("End-tag matching: slope 1 is linear, 2 quadratic")
ax.legend(fontsize=8)
plt.tight_layout()

# %% [markdown]
# The Standard itself walks the stack for an end tag it does not recognise, so a spec
# parser that follows it literally inherits the quadratic curve on this input.

# %% [markdown]
# ## 4. Why raw text and quoted values are skipped as blocks
#
# Inside `<script>`, `<style>`, `<textarea>` and `<title>` a `<` does not start a tag, and
# inside a quoted attribute value neither `<` nor `>` means anything. A scanner that
# looks for `<` everywhere finds tags that do not exist:

# %%
SNIPPET = ('<a title="x > y, <b>not bold</b>" href=/x>link</a>'
           '<script>if (a<b && c>d) document.write("<p>not a paragraph</p>")</script>'
           '<textarea><div>text, not a div</div></textarea><p>real</p>')
naive = [m.group(2).lower() for m in TAG.finditer(SNIPPET) if not m.group(1)]
real = [t.name for t in fp.parse(SNIPPET)]
pd.DataFrame({"naive '<' scanner": pd.Series(naive), "fastparse": pd.Series(real)}).fillna("")

# %% [markdown]
# fastparse jumps from `<script>` straight to `</script` (one `memchr`-style search, with
# the script-data escape states handled) and from an opening quote to the closing one,
# so those bytes are never looked at one by one. How much of a script-heavy page that
# is:

# %%
heavy = [] if QUICK else [p for p in corpora.real_pages(required=False) if p.kind == "script-heavy"]
sample_page = heavy[0].read() if heavy else generated.build("article")[0]
doc = fp.parse(sample_page)
raw = [sample_page[slice(*t.inner_span)] for t in doc if t.name in ("script", "style", "textarea", "title")]
QUOTED = re.compile(rb"=\s*(\"[^\"]*\"|'[^']*')")
quoted = [m.group(1) for t in doc for m in QUOTED.finditer(sample_page[t.span[0]:t.inner_span[0]])]
share = pd.DataFrame({
    "blocks": [len(raw), len(quoted)],
    "% of the page's bytes": [100 * sum(map(len, r)) / len(sample_page) for r in (raw, quoted)],
    "'<' and '>' bytes inside": [sum(x.count(b"<") + x.count(b">") for x in r) for r in (raw, quoted)],
}, index=["raw-text element contents", "quoted attribute values"])
name = heavy[0].id if heavy else "generated/article"
share.style.set_uuid("blocks").format({"% of the page's bytes": "{:.1f}"}).set_caption(
    f"{name}: {len(sample_page):,} bytes, {sample_page.count(b'<'):,} '<' in all")

# %% [markdown]
# ## 5. Parsing bytes without decoding
#
# Every byte the parser acts on (`<`, `>`, `/`, `=`, quotes, whitespace) is ASCII. In an
# ASCII-compatible encoding those bytes mean the same thing, and a multi-byte character
# never contains one of them, so the parser can read the bytes as they are and decode
# only the slices a user asks for. The table checks both properties for each encoding by
# brute force (every byte, and every two-byte sequence) rather than trusting a list.

# %%
MARKUP = b"<>/=\"' \t\n&!?-"


def properties(codec):
    ascii_same = all(bytes([b]).decode(codec, "replace") == chr(b) for b in range(0x80))
    hidden = set()
    for lead in range(0x80, 0x100):
        for trail in MARKUP:
            s = bytes([lead, trail]).decode(codec, "replace")
            if len(s) == 1 and s != "\ufffd":          # the markup byte became part of one character
                hidden.add(chr(trail))
    stateful = "<" not in (b"\x1b$B<<\x1b(B").decode(codec, "replace")
    return ascii_same, "".join(sorted(hidden)), stateful


names = ["utf-8", "windows-1252", "windows-1251", "iso-8859-2", "koi8-r", "shift_jis", "euc-jp", "gbk",
         "gb18030", "big5", "euc-kr", "iso-2022-jp", "utf-16le"]
table = []
for label in names:
    found = fpenc.detect(b"", label)
    ascii_same, hidden, stateful = properties(found.codec)
    table.append({"encoding": found.name, "ASCII bytes mean ASCII": ascii_same,
                  "markup bytes inside a character": hidden or "none",
                  "escape sequences change ASCII": stateful,
                  "fastparse": "transcodes to UTF-8 first" if found.transcode else "parses the bytes as they are"})
pd.DataFrame(table).set_index("encoding").style.set_uuid("encodings")

# %% [markdown]
# So a windows-1251 page is parsed in place: `doc.source` is the very bytes object given,
# offsets are byte offsets, and only the text that is read gets decoded.

# %%
cyrillic = "<html><head><meta charset=windows-1251><title>Привет</title></head><p class=x>мир</p>"
data = cyrillic.encode("windows-1251")
doc = fp.parse(data)
pd.Series({"doc.encoding": doc.encoding, "doc.source is data": doc.source is data,
           "title text": doc.find("title").text, "<p> span (bytes)": doc.find("p").span,
           "<p> text": doc.find("p").text})

# %% [markdown]
# ### When a page declares nothing
#
# A page with no byte-order mark, no transport hint and no `<meta charset>` that is not
# UTF-8 leaves the parser to guess. The HTML Standard lets it, and browsers do (Firefox's
# chardetng, Chrome's CED); fastparse guesses only when the text has its language's shape
# (kana, Hangul, GB2312's characters, Slavic letter frequencies, Thai marks on consonants)
# and otherwise keeps the old default, windows-1252. The same short page, written in
# several encodings with nothing declared: what the default alone would show, and what
# the guess reads.

# %%
texts = {
    "shift_jis": "東京の天気は今日も晴れです。明日は雨が降るかもしれません。",
    "gbk": "今天北京的天气很好，我们一起去公园散步吧。新产品已经上市。",
    "big5": "今天台北的天氣很好，我們一起去公園散步吧。新產品已經上市。",
    "euc-kr": "오늘 서울의 날씨는 맑습니다. 내일은 비가 올 수도 있습니다.",
    "windows-1251": "Сегодня в Москве хорошая погода. Завтра может пойти дождь, возьмите зонт.",
    "windows-1253": "Σήμερα ο καιρός στην Αθήνα είναι καλός. Αύριο μπορεί να βρέξει, πάρτε ομπρέλα.",
    "windows-1252": "Aujourd'hui il fait très beau à Paris. Demain il pourrait pleuvoir, hélas.",
}
rows = []
for name, text in texts.items():
    data = f"<title>x</title><p>{text}</p>".encode(fpenc.lookup(name)[1])
    found = fpenc.detect(data)
    rows.append({"written in": name, "decided": found.name, "by": found.source,
                 "windows-1252 would read": data[19:59].decode("cp1252", "replace"),
                 "fastparse reads": fp.parse(data).find("p").text[:24]})
pd.DataFrame(rows).set_index("written in")
