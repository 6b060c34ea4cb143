"""Atheris harness over the whole Python API: parse, then every query and accessor.

    python tests/fuzz/fuzz_parse.py CORPUS_DIR SEED_DIR -max_total_time=3600

(libFuzzer flags; see tests/fuzz/README.md.) Input layout, shared with
fuzz_engine.c and tests/fuzz/seeds.py: byte 0 chooses how to parse (str or
bytes, an ``encoding=`` label, a fragment context, recovery, scripting, a tiny
max_depth), byte 1 chooses the label or context, the rest is the document.
The query arguments (names, ids, classes, attribute filters, CSS selectors)
come from a random generator seeded by the input, mixing what the document
holds with made-up values, so a failing input replays exactly.

Only documented exceptions are caught: SelectorError from select,
ParseLimitError when a tiny max_depth was chosen, and LookupError for a bad
label. Anything else, or a broken invariant (an ``AssertionError``), is a
crash that atheris keeps. (str input is made by decoding the bytes, so it
never holds lone surrogates: parse() raises UnicodeEncodeError for those.)
"""
import os
import random
import sys
import zlib

import atheris

# An extension built with -fsanitize=fuzzer-no-link (build.sh atheris) needs
# libFuzzer's symbols when it loads: run with LD_PRELOAD of atheris's
# core_with_libfuzzer (README.md). The stock build needs nothing.
with atheris.instrument_imports():
    import fastparse as fp
    import fastparse.encoding
    import fastparse.selectors
    from fastparse._foreign_names import MATHML_ATTRIBUTE_NAMES, SVG_ATTRIBUTE_NAMES, SVG_TAG_NAMES

FALLBACK_LABELS = ["utf-8", "windows-1252", "iso-8859-2", "koi8-r", "shift_jis", "euc-jp", "gbk",
              "gb18030", "big5", "euc-kr", "iso-2022-jp", "utf-16le", "utf-16be",
              "x-user-defined", "replacement", "macintosh", "ibm866"]
try:  # every WHATWG label, all the families
    LABELS = sorted(fastparse.encoding._LABELS)
except AttributeError:  # the private table moved: one label per family
    LABELS = FALLBACK_LABELS
# Known, reported bugs the harness steps around so a long run finds new ones:
# FP_FUZZ_SKIP=legacy-attr-name,nul-attr-name (comma-separated). Empty by default.
SKIP = set(filter(None, os.environ.get("FP_FUZZ_SKIP", "").split(",")))
BAD_LABELS = ["", "no-such-encoding", "utf-7", "utf-32", " "]
CONTEXTS = ["div", "td", "tr", "tbody", "table", "select", "svg", "math", "textarea", "title",
            "script", "style", "plaintext", "noscript", "template", "html", "body", "head", "p",
            "li", "frameset", "xmp", "iframe", "foreignObject", "unknown-tag", "DIV"]
NAMES = ["div", "p", "a", "li", "td", "tr", "table", "span", "svg", "path", "math", "mi", "b",
         "script", "title", "x-y", "", "DIV", "\u00e9", "a b", "foreignobject", "*"]
CLASSES = ["a", "b", "x y", "", " ", "\u00e9", "-", "price"]
ATTR_NAMES = ["id", "class", "href", "src", "data-x", "", "a", "ID", "xlink:href", "=", "\u00e9"]

SELECTOR_PARTS = [
    "*", "div", "p", "a", "li", "td", "svg", "b", "#a", ".a", ".b", "[id]", "[href]", "[class~=a]",
    "[a=b]", "[a^=x]", "[a$=x]", "[a*=x]", "[a|=x]", "[a=x i]", "[a=x s]", "[x='y z']", " ", " > ",
    " + ", " ~ ", ", ", ":not(p)", ":is(a, b)", ":where(li)", ":has(> a)", ":has(+ p)",
    ":nth-child(2n+1)", ":nth-child(odd)", ":nth-last-child(-n+3)", ":nth-of-type(2)",
    ":nth-child(2 of .a)", ":first-child", ":last-child", ":only-child", ":first-of-type",
    ":empty", ":root", ":scope", ":contains(x)", ':-soup-contains("a")', ":checked",
    ":disabled", ":enabled", ":link", ":defined", ":lang(en)", "(", ")", "[", "]", "\\", "'",
    '"', "::before", ":hover", "|", "*|*", "svg|rect", ">>", "#", ".", ":", "\u00e9", "\\31 ",
    ":default", ":indeterminate", ":in-range", ":out-of-range", ":dir(rtl)", ":dir(ltr)", ":open",
    "|p", ":host(p)", "[*|href]", "&", ":is()", ":valid", ":invalid",
]


def dom_name(name: str, camel_case: dict[str, str]) -> str:
    lower = "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in name)
    return camel_case.get(lower, lower)


def make_selector(rng: random.Random, names: list[str]) -> str:
    if rng.random() < 0.1:  # arbitrary text: the selector parser must only ever say SelectorError
        return "".join(chr(rng.randrange(32, 0x250)) for _ in range(rng.randrange(12)))
    parts = SELECTOR_PARTS + names
    return "".join(rng.choice(parts) for _ in range(rng.randrange(1, 7)))


def query_kwargs(rng: random.Random, doc_names, doc_ids, doc_classes, doc_attrs) -> dict:
    kw = {}
    if rng.random() < 0.6:
        kw["name"] = rng.choice(doc_names + NAMES) if rng.random() < 0.9 else None
    if rng.random() < 0.3:
        kw["id"] = rng.choice(doc_ids + ["a", "", "\u00e9"])
    if rng.random() < 0.3:
        kw["cls"] = rng.choice(doc_classes + CLASSES)
    if rng.random() < 0.3:
        attrs = {}
        for _ in range(rng.randrange(1, 3)):
            name, value = rng.choice(doc_attrs + [(n, "x") for n in ATTR_NAMES])
            attrs[name] = True if rng.random() < 0.4 else value
        kw["attrs"] = attrs
    return kw


def check_structure(doc, source_len: int) -> None:
    prev_start = -1
    for i, tag in enumerate(doc):
        start, end = tag.span
        istart, iend = tag.inner_span
        assert 0 <= start < istart <= iend <= end <= source_len, (tag, tag.span, tag.inner_span)
        assert start > prev_start, "document order is start-offset order"
        prev_start = start
        assert tag.index == i and doc[tag.index] == tag  # a fresh Tag equals this one
        parent = tag.parent
        if parent:
            assert parent.index < i
            assert tag.depth == parent.depth + 1
            pstart, pend = parent.span
            assert pstart < start and end <= pend, (parent.span, tag.span)
        else:
            assert tag.depth == 0
        assert tag.closed_by in ("end-tag", "implied", "parent-end", "void", "self-closing", "eof")
        assert tag.line >= 1 and tag.col >= 1


def exercise_tag(tag, doc, rng, pools, heavy: bool) -> None:
    src = doc.source
    start, end = tag.span
    istart, iend = tag.inner_span
    html = tag.html
    assert isinstance(html, str) and isinstance(tag.inner_html, str)
    if isinstance(src, str):
        assert html == src[start:end] and tag.inner_html == src[istart:iend]
    name = tag.name
    ns = tag.namespace
    # names are ASCII lower-case, but for the camel case the DOM gives SVG and MathML ones
    assert isinstance(name, str) and name and name == dom_name(name, SVG_TAG_NAMES if ns == "svg" else {}), name
    attrs = tag.attrs
    assert isinstance(attrs, dict)
    attr_names = {"svg": SVG_ATTRIBUTE_NAMES, "math": MATHML_ATTRIBUTE_NAMES}.get(ns, {})
    for key, value in attrs.items():
        assert isinstance(key, str) and isinstance(value, str)
        assert key == dom_name(key, attr_names), (ns, key)
        if ("legacy-attr-name" in SKIP and not key.isascii()) or \
                ("nul-attr-name" in SKIP and "\ufffd" in key):
            continue
        assert tag.get(key) == value and key in tag and tag[key] == value, (key, value)
    assert tag.get("\x00no such attribute") is None
    tag.id, tag.classes, tag.namespace, tag.line, tag.col, hash(tag), repr(tag)
    assert tag.document is doc
    nxt, prv = tag.next, tag.prev
    assert not nxt or nxt.index == tag.index + 1
    assert not prv or prv.index == tag.index - 1
    if heavy:
        text = tag.text
        assert isinstance(text, str)
        sep, strip = rng.choice(["", " ", "|"]), rng.random() < 0.5
        skip = rng.choice([None, (), ("script", "style", "template"), ["p", "svg"]])
        plain = tag.get_text(sep, strip, skip)
        assert tag.get_text(sep, strip, skip, collapse=True) == " ".join(plain.split())
        children = tag.children
        for child in children:
            assert child.parent == tag
        # tree order: document order but for fostered elements, each before its table
        assert sorted(c.index for c in children) == [
            t.index for t in tag.descendants if t.parent == tag]
        inside = range(tag.index + 1, tag.index + 1 + len(tag.descendants))
        assert [t.index for t in tag.descendants] == list(inside)
        assert all(c.index in inside for c in children)
        tag.next_sibling(rng.choice(pools[0] + [None])), tag.prev_sibling()
        kw = query_kwargs(rng, *pools)
        limit = rng.choice([None, 0, 1, 5])
        found = tag.find_all(**kw, limit=limit)
        assert all(t.index in inside for t in found)
        assert limit is None or len(found) <= limit
        if limit != 0:
            assert tag.find(**kw) == (found[0] if found else fp.MISSING)
        css = make_selector(rng, pools[0])
        try:
            selected = tag.select(css)
            assert [t.index for t in selected] == sorted({t.index for t in selected})
            tag.select_one(css), tag.matches(css), tag.closest(css)
        except fp.SelectorError:
            pass
        tag._repr_html_()


def parse_input(data: bytes):
    mode, extra, body = data[0], data[1], data[2:]
    kind = mode & 3
    if kind == 0:
        source = body
    elif kind == 1:
        source = body.decode("utf-8", "replace")
    elif kind == 2:
        source = bytearray(body) if extra & 1 else memoryview(body)
    else:
        source = body.decode("latin-1")
    kw = {}
    bad_label = False
    if mode & 4:
        if extra >= 250:
            kw["encoding"] = BAD_LABELS[extra % len(BAD_LABELS)]
            bad_label = True
        else:
            kw["encoding"] = LABELS[extra % len(LABELS)]
    if mode & 16:
        kw["recovery"] = "none"
    if mode & 32:
        kw["scripting"] = True
    tiny_depth = bool(mode & 64)
    if tiny_depth:
        kw["max_depth"] = 1 + extra % 8
    try:
        if mode & 8:
            doc = fp.parse_fragment(source, CONTEXTS[extra % len(CONTEXTS)], **kw)
        else:
            doc = fp.parse(source, **kw)
    except fp.ParseLimitError as e:
        assert tiny_depth and e.limit == "max_depth", e
        return None
    except LookupError:
        assert bad_label
        return None
    return doc


def TestOneInput(data: bytes) -> None:
    if len(data) < 2:
        return
    doc = parse_input(data)
    if doc is None:
        return
    rng = random.Random(zlib.crc32(data))
    src = doc.source
    n = len(doc)
    assert isinstance(doc.encoding, str)
    check_structure(doc, len(src))
    errors = doc.errors
    for err in errors:
        assert 0 <= err.offset <= len(src) and err.line >= 1 and err.col >= 1, err
    assert [e.offset for e in errors] == sorted(e.offset for e in errors)
    assert doc.errors == errors   # kept from the first read
    offsets = [c.offset for c in doc.comments]
    assert offsets == sorted(offsets) and all(0 <= o < len(src) for o in offsets)
    assert all(isinstance(c.text, str) and c.line >= 1 for c in doc.comments)
    instructions = doc.processing_instructions
    assert [p.offset for p in instructions] == sorted(p.offset for p in instructions)
    assert all(p.target and src[p.offset:p.offset + 2 + len(p.target)] == "<?" + p.target
               for p in instructions if isinstance(src, str))
    assert not set(offsets) & {p.offset for p in instructions}
    assert doc.doctype is None or isinstance(doc.doctype, str)
    top = doc.children
    assert sorted(t.index for t in top) == [t.index for t in doc if not t.parent]
    assert isinstance(doc.text, str)
    doc.get_text(" ", True), doc.get_text(skip=None), repr(doc), doc.html
    assert doc.get_text(skip=(), collapse=True) == " ".join(doc.text.split())
    assert (doc.root is fp.MISSING) == (n == 0)
    # pools of real names / ids / classes / attributes for the queries
    sample = [doc[i] for i in sorted(rng.sample(range(n), min(n, 40)))] if n else []
    names = sorted({t.name for t in sample})
    ids = [t.id for t in sample if t.id is not None]
    classes = [c for t in sample for c in t.classes]
    attrs = [kv for t in sample for kv in t.attrs.items()]
    pools = (names, ids, classes, attrs)
    for k, tag in enumerate(sample):
        exercise_tag(tag, doc, rng, pools, heavy=k < 8)
    for _ in range(3):
        kw = query_kwargs(rng, *pools)
        found = doc.find_all(**kw)
        first = doc.find(**kw)
        assert (first == found[0]) if found else first is fp.MISSING
        assert [t.index for t in found] == sorted({t.index for t in found})
        css = make_selector(rng, names)
        try:
            selected = doc.select(css)
            one = doc.select_one(css)
            assert (one == selected[0]) if selected else one is fp.MISSING
        except fp.SelectorError:
            pass
    missing = doc.find("\x00never")
    assert missing is fp.MISSING and missing.find("a").text is None


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
