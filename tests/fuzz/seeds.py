"""Writes the seed corpus of the fuzz harnesses into a cache directory (never the repo).

    python tests/fuzz/seeds.py [OUTDIR] [--raw] [--chunk BYTES] [--max-seeds N]

Sources: the real pages of ../shared/corpora (cut into chunks so the fuzzer
stays fast), every ``#data`` input of the html5lib tree-construction ``.dat``
files and every tokenizer ``.test`` input, the hand-written malformed cases
(``cases.json``, repeats capped), and a list of tricky snippets below.

Each seed starts with two control bytes (the harnesses' option bytes: see
fuzz_engine.c and fuzz_parse.py); ``--raw`` writes the HTML alone. OUTDIR
defaults to $FUZZ_OUT/seeds, else ${XDG_CACHE_HOME:-~/.cache}/fastparse-fuzz/seeds.
Prints the directory and the number of seeds written.
"""
import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"

# Inputs that poke at the tokenizer's and the simulator's corners.
TRICKY = [
    b"", b"<", b"</", b"<!", b"<!-", b"<!--", b"<!---", b"<!-->", b"<!--->", b"<?", b"<!DOCTYPE",
    b"<a", b"<a ", b"<a b", b"<a b=", b"<a b='", b'<a b="', b"<a b=c", b"<a/", b"</a", b"</a b",
    b"<script>", b"<script><!--", b"<script><!--<script>", b"<script><!--<script></script>",
    b"<script><!--<script></script></script>", b"<style>x</sty", b"<title>&amp", b"<textarea>",
    b"<plaintext><a>", b"<xmp></xmp", b"<noscript><p>", b"<iframe></iframe >",
    b"<svg><![CDATA[x]]></svg>", b"<svg><![CDATA[", b"<math><mi><svg><foreignObject><p>",
    b"<svg><desc><table><td>", b"<math><annotation-xml encoding=text/html><div>",
    b"<table><tr><td>a<td>b<tr><td>c</table>", b"<table><caption><td>", b"<select><option><optgroup>",
    b"<ul><li>a<li>b</ul>", b"<dl><dt>a<dd>b</dl>", b"<p><div></p>", b"</p></br></p>",
    b"<ruby><rb>a<rt>b<rp>c</ruby>", b"<b><i></b></i>", b"<a><a><a>", b"<template><td></template>",
    b"<head><body><html><frameset>", b"<a href=&amp;&lt;&#x41;&#65;&#0;&#x110000;&notin;&notit>",
    b"&#xD800;&#128;&#x80;&#9999999999;&;&#;&#x;&amp", b"<p id=a id=b class='x y' class=z>",
    b"<A HREF=X>", b"<svg viewBox=0><foreignObject/><path/></svg>", b"<br/><img/><input/>",
    b"<p><b>x</p><span>y</b>z", b"<b><i><div>x</b>y<span>z</i>w", b"<div><form><p><b>x</p>y</form><i>",
    b"<p><a>x</p><table>y<script></script> <input type=hidden><tr>", b"<p><nobr>x</p><h1>y<h2><nobr>",
    b"<a><s><u><a><dl></s><font></u><script></script>x", b"<a><form><i><i><div><a></form></i>x",
    b"<table><td><em><marquee></td><small></em><nav>", b"<nobr><table><object></table><h1></nobr>",
    b"<strike><h1><blockquote><center><ul><h2><ul><h1><ul></strike><a></strike><div>",
    b"\x00<\x00a\x00>", b"<\xff\xfe>", b"\xef\xbb\xbf<p>", b"\xfe\xff\x00<\x00p\x00>",
    b"<meta charset=windows-1251><p>\xe0\xe1", b"<meta http-equiv=content-type content='text/html; charset=shift_jis'>",
    b"<p>\r\n\r</p>", b"<div " + b"a=1 " * 40 + b">", b"<" * 64, b"<p>" * 64, b"<div>" * 64,
    b"<svg>" + b"<g>" * 64, b"<a>" * 32 + b"<table>" * 16,
    b"<div><form>" + b"<rt>" * 20 + b"x</body></form>x</body><optgroup>x</html>",
    b"<b><div>" + b"<rp>" * 20 + b"x</body></b>x</body><frameset>",
    b"<a><form><strong><a></form><button></a>x<i>y</form></i>",
    # ISO-2022-JP (fuzz_engine.c transcodes every input as it too): pairs, Roman, Katakana, errors
    b"<p>\x1b$BF|K\\-!\x1b(B</p>\x1b(J\\~\x1b(I1_`\x1b$@\x1b(B\x1b$x\x0e\x1b(\x1b$BF",
    # the encoding guess's sample (fuzz_engine.c's check_guess): undeclared Shift_JIS and Big5
    # runs of text between tags, a cut pair, a '>' in the text, UTF-8 with a stray byte
    b"\x93\xfa\x96{<p>\x82\xb1\x82\xea>\x82</p><a title=\xa4\xa4>\xa4\xa4\xa4@</a>caf\xc3\xa9 \xe9<",
]


# Selectors compiled to engine programs, for fuzz_engine.c's selector mode.
SELECTORS = [
    "p", "div > p", "a[href]", "ul li:nth-child(2n+1)", ".a.b#c", "td + td", "h1 ~ p",
    "div:not(.x) span", ":is(a, b) i", "li:has(> a[href^=http])", "p:empty", ":root > body",
    "tr:nth-last-of-type(odd)", "svg|rect, svg path", "[lang|=en]", "[title*=x i]",
    "input:checked", "option:checked", "a:link", ":scope > div", "p:contains(x)",
    "select > option:first-child", "x-y:defined", "li:only-child", "td:nth-of-type(3n of .x)",
    ":lang(en)", "p:lang('*-CH', '')", ":-soup-contains-own(x)", ":read-write", "input:required",
    "div div span", "section :placeholder-shown", ":default", "form :indeterminate",
    "input:in-range", ":out-of-range", "*|p", ":-fp-default-button", "input:-fp-radio-unchecked",
    ":-fp-in-range", "[min]:-fp-out-of-range", "p:dir(rtl)", "[dir=auto]:dir(ltr)",
    ":valid", "form:invalid", "fieldset :invalid", "input:-fp-invalid", "[pattern]:-fp-valid",
]


def selector_seeds():
    """(program, html) pairs; nothing when the selector compiler is not importable."""
    try:
        sys.path.insert(0, str(ROOT))
        from fastparse.errors import SelectorError
        from fastparse.selectors.cache import program
    except ImportError as e:  # the compiler needs the package; say why and go on
        print(f"note: no selector seeds ({e})", file=sys.stderr)
        return []
    html = b"<html><body><div class=a id=c><p class=b>x<a href=http://e>y</a></p><ul><li>1<li>2</ul>" \
        b"<table><tr><td>a<td>b</table><svg><rect/><path/></svg><select><option selected>o</select></div>" \
        b"<form id=f><input type=number min=1 max=5 value=9 name=g><input type=radio name=g><button>b</button>" \
        b"</form><input type=time min=22:00 max=02:00 value=23:00 form=f><input type=week max=2020-W53>" \
        + "<div dir=auto><!-- x --><span dir=ltr>a</span>\u05e9<bdi>b</bdi><input dir=auto value=\u0645></div>".encode() \
        + b"<fieldset><input pattern='(?=.*\\d)[\\w--_]{2,}|(?<=a)b' value=a1><input type=email multiple value='a@b,c'>" \
        + b"<input type=url value=http://x:1><select required><option value=''>-</select></fieldset>"
    out = []
    for css in SELECTORS:
        try:
            prog = program(css)
        except SelectorError as e:  # a selector this version does not support
            print(f"note: {css!r} skipped ({e})", file=sys.stderr)
            continue
        if len(prog) <= 255 * 4:
            out.append((prog, html))
    return out


def html5lib_inputs():
    tree = CORPORA / "html5lib-tests" / "tree-construction"
    for path in sorted(tree.glob("**/*.dat")):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        for block in text.split("\n#data\n"):
            block = block.removeprefix("#data\n")
            data, sep, _ = block.partition("\n#errors")
            if sep:
                yield data.encode("utf-8", "surrogatepass")
    for path in sorted((CORPORA / "html5lib-tests" / "tokenizer").glob("*.test")):
        for test in json.loads(path.read_text(encoding="utf-8")).get("tests", []):
            source = test["input"]
            if test.get("doubleEscaped"):
                source = source.encode("latin-1", "backslashreplace").decode("unicode-escape")
            yield source.encode("utf-8", "surrogatepass")


def malformed_inputs():
    cases = CORPORA / "malformed" / "cases.json"
    if not cases.exists():
        return
    for case in json.loads(cases.read_text(encoding="utf-8")):
        repeat = min(int(case.get("repeat", 1)), 64)
        html = case.get("prefix", "") + case["html"] * repeat + case.get("suffix", "")
        yield html.encode("utf-8", "surrogatepass")


def page_chunks(chunk: int):
    manifest = CORPORA / "MANIFEST.tsv"
    if not manifest.exists():
        return
    for line in manifest.read_text(encoding="utf-8").splitlines()[1:]:
        data = (CORPORA / line.split("\t")[0]).read_bytes()
        for start in range(0, min(len(data), 3 * chunk), chunk):
            yield data[start:start + chunk]


def main(argv=None) -> int:
    default = Path(os.environ.get("FUZZ_OUT") or Path(
        os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "fastparse-fuzz") / "seeds"
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir", nargs="?", type=Path, default=default)
    ap.add_argument("--raw", action="store_true", help="no control bytes")
    ap.add_argument("--chunk", type=int, default=16384, help="bytes per page chunk")
    ap.add_argument("--max-seeds", type=int, default=0,
                    help="keep the snippets and an even sample of the rest (smoke runs)")
    args = ap.parse_args(argv)
    if not CORPORA.exists():
        print(f"note: {CORPORA} is absent: only the built-in snippets are written", file=sys.stderr)
    args.outdir.mkdir(parents=True, exist_ok=True)
    seen = set()
    sources = [TRICKY, html5lib_inputs(), malformed_inputs(), page_chunks(args.chunk)]
    inputs = [h for source in sources for h in source]
    if args.max_seeds and len(inputs) > args.max_seeds:
        rest = inputs[len(TRICKY):]
        step = len(rest) / max(1, args.max_seeds - len(TRICKY))
        inputs = TRICKY + [rest[int(k * step)] for k in range(args.max_seeds - len(TRICKY))]
    seeds = []
    for n, html in enumerate(inputs):
        # most seeds use the default options; every fourth gets varied ones (no program)
        control = b"" if args.raw else bytes([(n * 37) % 128 if n % 4 == 3 else 0, n % 256])
        seeds.append(control + html)
    if not args.raw:  # mode bit 7: a selector program of byte-1 words before the HTML
        seeds += [bytes([0x80, len(prog) // 4]) + prog + html for prog, html in selector_seeds()]
    for seed in seeds:
        name = hashlib.sha1(seed).hexdigest()
        if name not in seen:
            seen.add(name)
            (args.outdir / name).write_bytes(seed)
    print(f"{args.outdir}\t{len(seen)} seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
