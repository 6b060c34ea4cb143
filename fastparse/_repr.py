"""The Jupyter view of a Document or Tag: a compact, indented outline (tag
names, ids, classes, how each element closed, short collapsed text), not a
dump of the source. Long documents are cut after MAX_ROWS elements."""
from html import escape

MAX_ROWS = 200
TEXT_CHARS = 60

_STYLE = ("font-family:monospace;font-size:12px;line-height:1.35;white-space:pre;"
          "max-height:420px;overflow:auto;border:1px solid #ddd;padding:6px")


def _short_text(tag) -> str:
    # only text directly inside a leaf element: enough to recognise it
    if tag.children:
        return ""
    text = " ".join((tag.text or "").split())
    return text if len(text) <= TEXT_CHARS else text[:TEXT_CHARS - 1] + "…"


def _row(tag, base_depth: int) -> str:
    label = f'<b style="color:#22863a">{escape(tag.name)}</b>'
    if tag.id:
        label += f'<span style="color:#6f42c1">#{escape(tag.id)}</span>'
    for cls in tag.classes[:4]:
        label += f'<span style="color:#005cc5">.{escape(cls)}</span>'
    if tag.closed_by != "end-tag":
        label += f' <span style="color:#999">[{tag.closed_by}]</span>'
    text = _short_text(tag)
    if text:
        label += f' <span style="color:#555">“{escape(text)}”</span>'
    return "  " * (tag.depth - base_depth) + label


def _outline(tags, base_depth: int, header: str) -> str:
    rows = [_row(t, base_depth) for t in tags[:MAX_ROWS]]
    if len(tags) > MAX_ROWS:
        rows.append(f'<span style="color:#999">… {len(tags) - MAX_ROWS} more elements</span>')
    return f'<div><div style="font-family:sans-serif;font-size:12px;color:#555">{header}</div>' \
           f'<div style="{_STYLE}">' + "\n".join(rows) + "</div></div>"


def document_html(doc) -> str:
    header = escape(f"Document: {len(doc)} elements, {len(doc.source)} "
                    f"{'characters' if isinstance(doc.source, str) else 'bytes'}, "
                    f"encoding {doc.encoding}, {len(doc.errors)} parse errors")
    return _outline(doc[:MAX_ROWS + 1], 0, header)


def tag_html(tag) -> str:
    first = tag.index
    last = first + len(tag.descendants)
    tags = tag.document[first:min(last, first + MAX_ROWS) + 1]
    header = escape(f"Tag <{tag.name}> at line {tag.line}, col {tag.col}: "
                    f"{last - first} descendants")
    return _outline(tags, tag.depth, header)
