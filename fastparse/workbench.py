"""Helpers shared by the workbench notebooks (notebooks/*.ipynb).

Why it exists: the notebooks should read as prose plus short cells, and the
tests execute them; the few functions that several notebooks need (where the
results and corpora are, the quick mode, coloured side-by-side outlines,
highlighted source) live here, documented and importable, instead of being
copied from cell to cell. Measuring is left to fastparse.bench and
fastparse.conformance; this module only finds, shapes and draws.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from html import escape
from pathlib import Path

QUICK_ENV = "FASTPARSE_NOTEBOOK_QUICK"
RAW_ENV = "FASTPARSE_RESULTS_RAW"

# The parsers the recovery notebook compares, in column order (conformance adapter names).
RECOVERY_PARSERS = ("fastparse", "bs4-html.parser", "bs4-lxml", "lxml", "html5lib", "selectolax", "turbohtml")


def quick() -> bool:
    """True when the notebooks run in the tests' quick mode (small corpus and samples)."""
    return os.environ.get(QUICK_ENV, "") not in ("", "0")


def repo_root() -> Path:
    """The source checkout (holds results/ and notebooks/)."""
    from .bench.runner import project_root
    return project_root()


def shared_corpora() -> Path | None:
    """../shared/corpora next to the checkout, or None when it is absent (never copied in)."""
    d = repo_root().parent / "shared" / "corpora"
    return d if d.is_dir() else None


def tables_source() -> list[Path]:
    """The raw runs results/tables/ was rendered from (its SOURCE file: one run, or several
    runs of one commit pooled); [] when there is no such file."""
    source = repo_root() / "results" / "tables" / "SOURCE"
    if not source.is_file():
        return []
    return [repo_root() / "results" / "raw" / Path(line.removeprefix("rendered from ")).name
            for line in source.read_text().splitlines() if line.startswith("rendered from ")]


def results_runs() -> list[Path]:
    """The raw results to read: $FASTPARSE_RESULTS_RAW; else the runs the committed tables
    were rendered from; else the newest committed run; [] when there is none."""
    if os.environ.get(RAW_ENV):
        return [Path(os.environ[RAW_ENV])]
    named = tables_source()
    if named and all((p / "run.json").is_file() for p in named):
        return named
    return sorted(p for p in (repo_root() / "results" / "raw").glob("*") if (p / "run.json").is_file())[-1:]


def malformed_cases() -> list[dict] | None:
    """The hand-written malformed snippets (../shared/corpora/malformed/cases.json), or None."""
    from .conformance import MALFORMED_CASES
    if not MALFORMED_CASES.is_file():
        return None
    return json.loads(MALFORMED_CASES.read_text(encoding="utf-8"))


def case_input(case: dict) -> str:
    """A malformed case's actual input: prefix + html * repeat + suffix."""
    return case.get("prefix", "") + case["html"] * case.get("repeat", 1) + case.get("suffix", "")


# ---- outlines side by side ------------------------------------------------------------
_CLOSED_COLOUR = {"end-tag": "#999", "implied": "#b36b00", "parent-end": "#8a4baf",
                  "void": "#999", "self-closing": "#999", "eof": "#c0392b"}


def fastparse_rows(doc, data: str) -> list[tuple[int, str, str]]:
    """(depth, name, closed_by) of a fastparse document, spliced like the other trees.

    fastparse indexes only real start tags, so splicing (which removes elements
    without a start tag in the data) keeps every element: depths are the index's."""
    from .conformance import has_start_tag
    return [(t.depth, t.name, t.closed_by) for t in doc if has_start_tag(data, t.name)]


def outline_rows(tree, data: str) -> list[tuple[int, str, str]]:
    """(depth, name, "") of a conformance NeutralTree after splicing against data."""
    from .conformance import TreeCase, spliced_outline
    case = TreeCase("-", 0, data, [])
    return [(d, n, "") for d, n in spliced_outline(case, tree)]


def _cell(rows, reference) -> str:
    """One column: indented names; rows outside the longest match with the reference in red."""
    same: set[int] = set()
    if reference is not None:
        key = [(d, n) for d, n, _ in rows]
        ref = [(d, n) for d, n, _ in reference]
        for block in difflib.SequenceMatcher(None, ref, key, autojunk=False).get_matching_blocks():
            same.update(range(block.b, block.b + block.size))
    lines = []
    for i, (depth, name, closed) in enumerate(rows):
        text = "&nbsp;" * (2 * depth) + f"<b>{escape(name)}</b>"
        if closed and closed != "end-tag":
            text += f' <span style="color:{_CLOSED_COLOUR.get(closed, "#999")}">{closed}</span>'
        bad = reference is not None and i not in same
        style = "background:#fdd;" if bad else ""
        lines.append(f'<div style="{style}white-space:nowrap">{text}</div>')
    if not rows:
        lines.append('<div style="color:#999">(no elements)</div>')
    if reference is not None and len(same) == len(rows) == len(reference):
        head = '<span style="color:#22863a">= spec</span>'
    elif reference is None:
        head = '<span style="color:#555">reference</span>'
    else:
        extra, missing = len(rows) - len(same), len(reference) - len(same)
        head = f'<span style="color:#c0392b">differs: {missing} missing, {extra} extra</span>'
    return f'<td style="vertical-align:top;padding:4px 8px;border:1px solid #ddd">{head}{"".join(lines)}</td>'


def side_by_side(columns: dict[str, list | str], reference: str) -> str:
    """An HTML table of outlines, one column per parser, red where a parser's
    outline leaves the reference column's (difflib on (depth, name) rows).
    A column given as a str is shown as an error message."""
    ref = columns[reference]
    head = "".join(f'<th style="padding:4px 8px;border:1px solid #ddd">{escape(n)}</th>' for n in columns)
    cells = []
    for name, rows in columns.items():
        if isinstance(rows, str):
            cells.append(f'<td style="vertical-align:top;border:1px solid #ddd;color:#c0392b">{escape(rows)}</td>')
        else:
            cells.append(_cell(rows, None if name == reference or isinstance(ref, str) else ref))
    return ('<table style="font-family:monospace;font-size:11px;border-collapse:collapse">'
            f"<tr>{head}</tr><tr>{''.join(cells)}</tr></table>")


# ---- categories of tree-construction cases ----------------------------------------------
_FORMATTING = "a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u"
CATEGORY_RULES = {  # category -> test on the lower-cased input; a case may fall in several
    "implied end tags": re.compile(r"<(li|dd|dt|p|option|optgroup|rb|rt|rtc|rp|h[1-6])[\s/>]"),
    "tables": re.compile(r"<(table|tr|td|th|tbody|thead|tfoot|caption|colgroup)[\s/>]"),
    "adoption agency": re.compile(rf"<({_FORMATTING})[\s>][^<]*(<[^/][^>]*>[^<]*)*</(?!\1>)[a-z]"),
    "foster parenting": re.compile(r"<(table|tbody|thead|tfoot|tr)[^>]*>\s*"
                                   r"(?:[^<\s]|<(?!/|t[rdh]|tbody|thead|tfoot|caption|col|script|style|template|"
                                   r"input|form|!))"),
    "raw text": re.compile(r"<(script|style|textarea|title|xmp|plaintext|iframe|noembed|noframes|noscript)[\s/>]"),
    "attributes": re.compile(r"<[a-z][^\s/>]*\s+[^>]*="),
    "EOF": re.compile(r"(<[^>]*|<!--(?:(?!-->).)*)$", re.DOTALL),
}


def categories(data: str) -> list[str]:
    """The recovery categories a test input exercises (by its source text; see CATEGORY_RULES)."""
    low = data.lower()
    return [name for name, rule in CATEGORY_RULES.items() if rule.search(low)]


# ---- highlighted source -------------------------------------------------------------------
def highlight(doc, tags, *, context: int = 80, limit: int = 5) -> str:
    """HTML: the source around each of the first `limit` matches, the element's start tag
    marked yellow and the rest of its span light yellow, with its line and column."""
    src = doc.source
    text = src if isinstance(src, str) else None
    blocks = []
    for tag in list(tags)[:limit]:
        start, end = tag.span
        inner = tag.inner_span[0]
        lo, hi = max(0, start - context), min(len(src), end + context)
        cut = min(end, inner + 4 * context)     # very long elements: show their beginning

        def piece(a, b):
            s = text[a:b] if text is not None else src[a:b].decode(doc.encoding, "replace")
            return escape(s)
        body = (piece(lo, start) + f'<mark style="background:#ffd54f">{piece(start, inner)}</mark>'
                + f'<mark style="background:#fff3c4">{piece(inner, cut)}</mark>'
                + ("<b>…</b>" if cut < end else "") + piece(max(cut, end), hi))
        blocks.append(f'<div style="color:#555;font-size:11px">line {tag.line}, col {tag.col}: '
                      f"&lt;{escape(tag.name)}&gt;, {tag.closed_by}</div>"
                      f'<pre style="white-space:pre-wrap;border:1px solid #ddd;padding:4px;margin:2px 0 8px">'
                      f"{body}</pre>")
    more = len(tags) - limit
    if more > 0:
        blocks.append(f'<div style="color:#999">… and {more} more</div>')
    return "".join(blocks) or '<div style="color:#999">no match</div>'


def matches_frame(tags, limit: int = 20):
    """A DataFrame of matches: position, how each closed, its text (collapsed) and attributes."""
    import pandas as pd
    rows = [{"name": t.name, "line": t.line, "col": t.col, "closed_by": t.closed_by,
             "text": " ".join((t.text or "").split())[:80], "attrs": dict(t.attrs)} for t in list(tags)[:limit]]
    return pd.DataFrame(rows, columns=["name", "line", "col", "closed_by", "text", "attrs"])


def log_axes(ax, x: bool = True, y: bool = True) -> None:
    """Log scales with plain-number labels on the decades only (minor labels overlap)."""
    from matplotlib.ticker import FormatStrFormatter, NullFormatter
    for on, axis, set_scale in ((x, ax.xaxis, ax.set_xscale), (y, ax.yaxis, ax.set_yscale)):
        if on:
            set_scale("log")
            axis.set_major_formatter(FormatStrFormatter("%g"))
            axis.set_minor_formatter(NullFormatter())
