# %% [markdown]
# # Explore a page
#
# Load one HTML page, look at its outline, count its tags, try selectors against it and
# see where they match in the source, and check its encoding and parse errors. Set
# `FASTPARSE_PAGE` to a corpus id (`myhtml/25.html`, `generated/books`), a local file or
# an `http(s)://` URL before starting the kernel to explore another page; by default the
# notebook opens a windows-1251 page of the shared corpus (or a generated catalogue page
# when the corpus is not next to the checkout).

# %%
import os
import urllib.request
from html import escape
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import HTML, Markdown, display

import fastparse as fp
from fastparse import corpora
from fastparse import encoding as fpenc
from fastparse import workbench as wb


def load_page(spec: str) -> tuple[bytes, str]:
    """The bytes of a page named by URL, local path, or corpus id, and where they came from."""
    if spec.startswith(("http://", "https://")):
        with urllib.request.urlopen(spec, timeout=20) as r:   # only when you ask for a URL
            return r.read(), spec
    if Path(spec).is_file():
        return Path(spec).read_bytes(), f"file {spec}"
    if spec.startswith("generated/"):
        return generated_page(spec), f"generated page {spec}"
    found = [p for p in corpora.real_pages(required=False) if p.id == spec]
    if not found:
        raise FileNotFoundError(f"{spec}: not a URL, a file, or a corpus page found next to the checkout")
    return found[0].read(), f"corpus page {spec} ({found[0].kind}, sha256 checked)"


def generated_page(spec: str) -> bytes:
    from fastparse.corpora import generated
    return generated.build(spec.split("/", 1)[1])[0]


default = "myhtml/25.html" if wb.shared_corpora() else "generated/books"
data, origin = load_page(os.environ.get("FASTPARSE_PAGE", default))
print(f"{origin}: {len(data):,} bytes; sniffed as {fp.sniff(data)!r}")

# %% [markdown]
# ## The outline
#
# Parsing is one call; the document's Jupyter view is a compact outline: tag names, ids,
# classes, how each element was closed when it was not by its own end tag, and short
# text (long pages are cut after the first elements).

# %%
doc = fp.parse(data)
doc

# %% [markdown]
# ## Encoding
#
# The page was given as bytes. fastparse decides the encoding the way a browser does
# (byte-order mark, transport hint, `<meta charset>` prescan, UTF-8 check, then for a page
# that declares nothing a guess from its text, as browsers make, or windows-1252) and, for an
# ASCII-compatible encoding, parses the bytes as they are, decoding only what is read.

# %%
found = fpenc.detect(data)
pd.Series({"encoding": doc.encoding, "decided by": found.source, "Python codec": found.codec,
           "parsed without decoding": not found.transcode,
           "doc.source is the input": doc.source is data}, name="encoding").to_frame()

# %% [markdown]
# ## Tag statistics
#
# Every element is one row of the flat index, so statistics are a loop over it: how many
# of each tag, how deep they sit, how many attributes they carry, and how they were
# closed.

# %%
rows = pd.DataFrame({"name": t.name, "depth": t.depth, "attributes": len(t.attrs), "closed_by": t.closed_by}
                    for t in doc)
stats = rows.groupby("name").agg(count=("depth", "size"), mean_depth=("depth", "mean"),
                                 max_depth=("depth", "max"), attributes=("attributes", "sum"))
stats = stats.join(pd.crosstab(rows.name, rows.closed_by)).sort_values("count", ascending=False)
stats.head(20).style.set_uuid("stats").format({"mean_depth": "{:.1f}"}).bar(subset=["count"], color="#9ecae1") \
    .set_caption(f"the 20 most frequent of {len(stats)} tag names ({len(doc):,} elements)")

# %% [markdown]
# How the elements were closed, and how deep the page nests:

# %%
fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5))
rows.closed_by.value_counts().plot.barh(ax=left)
wb.log_axes(left, y=False)
left.set_xlabel("elements (log)")
left.set_ylabel("closed by")
left.set_title("How elements were closed")
rows.depth.value_counts().sort_index().plot.bar(ax=right, width=0.9)
right.set_xlabel("depth (0 = top level)")
right.set_ylabel("elements")
right.set_title("Elements per depth")
right.tick_params(axis="x", labelsize=7)
plt.tight_layout()

# %% [markdown]
# ## Find and select, with the matches highlighted in the source
#
# `show_matches` runs a CSS selector (or, with `by="find"`, a tag name through
# `doc.find_all`), highlights the first matches in the source — the start tag in amber,
# the rest of the element in pale yellow — and lists their text and attributes.

# %%
def show_matches(query: str, by: str = "css", limit: int = 3):
    try:
        found = doc.select(query) if by == "css" else doc.find_all(query or None)
    except fp.SelectorError as exc:
        display(HTML(f"<pre style='color:#c0392b'>{escape(str(exc))}</pre>"))
        return
    display(Markdown(f"**{len(found)}** matches for `{query}` ({by})"),
            HTML(wb.highlight(doc, found, limit=limit)), wb.matches_frame(found, limit=10))


# %% [markdown]
# A static example, so the output is readable without a running kernel: links with an
# `href`.

# %%
show_matches("a[href]", limit=2)

# %% [markdown]
# The interactive box: type a selector and press Enter. Where widgets are not rendered
# (GitHub's viewer, a plain console), call `show_matches(...)` as above instead.

# %%
try:
    import ipywidgets as widgets
except ImportError:
    widgets = None
    print("ipywidgets is not installed (pip install 'fastparse[notebooks]'); use show_matches() directly")

if widgets is not None:
    query = widgets.Text(value="title", description="query", continuous_update=False)
    mode = widgets.Dropdown(options=["css", "find"], value="css", description="by")
    out = widgets.Output()

    def refresh(_=None):
        out.clear_output()
        with out:
            show_matches(query.value, mode.value)

    query.observe(refresh, names="value")
    mode.observe(refresh, names="value")
    refresh()
    display(widgets.HBox([query, mode]), out)

# %% [markdown]
# ## Parse errors
#
# `doc.errors` lists the HTML Standard's parse errors fastparse met, with where they are.
# Each with a few characters of source around it:

# %%
def around(offset: int, width: int = 30) -> str:
    piece = doc.source[max(0, offset - width):offset + width]
    return piece if isinstance(piece, str) else piece.decode(doc.encoding, "replace")


errors = pd.DataFrame([{"code": e.code, "line": e.line, "col": e.col, "source": around(e.offset)}
                       for e in doc.errors], columns=["code", "line", "col", "source"])
display(Markdown(f"{len(errors)} parse errors" + (", by code:" if len(errors) else ".")))
errors.code.value_counts().to_frame() if len(errors) else errors

# %%
errors.head(10)

# %% [markdown]
# ## Extraction
#
# Text and links come straight from the index: `get_text` walks the page's text nodes
# (script and style skipped), `find_all` with `attrs=` finds the links.

# %%
text = doc.get_text(separator=" ", strip=True)
Markdown(f"{len(text):,} characters of text; it begins: *{escape(text[:300])}…*")

# %%
links = pd.DataFrame([{"href": a.get("href"), "text": " ".join((a.text or "").split())[:60]}
                      for a in doc.find_all("a", attrs={"href": True})])
Markdown(f"{len(links)} links, {links.href.nunique() if len(links) else 0} distinct targets; the first ten:")

# %%
links.head(10)
