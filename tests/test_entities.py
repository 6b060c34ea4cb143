"""Character references: fp_entity_decode (entities.c) through fastparse._core._decode_refs.

Text mode is compared with Python's html.unescape, which implements the same longest-match
algorithm; the one documented difference is numeric references to controls and
noncharacters (&#1;, &#xFFFE;), which the HTML Standard keeps and html.unescape drops.
Attribute mode (the historical rule for names without ';') is checked against explicit
cases and a direct model of the spec's named character reference state.
"""

import html
import json
import random
import re
import subprocess
import sys
from html.entities import html5
from pathlib import Path

import pytest

from fastparse import _core

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(html5)
ALNUM = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def decode(text: str, in_attribute: bool = False) -> str:
    return _core._decode_refs(text.encode("utf-8"), in_attribute)


def spec_numeric(value: int) -> str:
    """Numeric character reference end state (HTML Standard 13.2.5.80)."""
    if value == 0 or value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
        return "\ufffd"
    if 0x80 <= value <= 0x9F:
        try:
            return bytes([value]).decode("cp1252")
        except UnicodeDecodeError:  # 0x81, 0x8D, 0x8F, 0x90, 0x9D are not in the table
            return chr(value)
    return chr(value)


# The reference pattern html.unescape uses (Lib/html/__init__.py).
_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def unescape_text(text: str) -> str:
    """html.unescape, except that numeric references follow the spec for controls."""

    def replace(match: re.Match) -> str:
        ref = match.group(1)
        if ref[0] != "#":
            return html.unescape(match.group(0))
        body = ref.rstrip(";")[1:]
        # "x41" -> int("0x41", 0); decimals may have leading zeros, which base 0 rejects
        return spec_numeric(int("0" + body, 0) if body[0] in "xX" else int(body))

    return _CHARREF.sub(replace, text)


def spec_named_attribute(text: str) -> str:
    """Model of the character reference states for an attribute value."""
    out, i = [], 0
    while i < len(text):
        if text[i] != "&" or i + 1 == len(text) or text[i + 1] not in ALNUM:
            if text.startswith("&#", i):
                match = _CHARREF.match(text, i)
                if match:
                    out.append(unescape_text(match.group(0)))
                    i = match.end()
                    continue
            out.append(text[i])
            i += 1
            continue
        start = i + 1
        longest = max((n for n in range(2, 33) if text[start : start + n] in html5), default=0)
        name = text[start : start + longest]
        after = text[start + longest : start + longest + 1]
        if not longest or (not name.endswith(";") and after and (after == "=" or after in ALNUM)):
            out.append("&")  # not decoded: the rest is copied as it is
            i += 1
            continue
        out.append(html5[name])
        i = start + longest
    return "".join(out)


def test_decode_refs_is_the_compiled_one():
    assert type(_core._decode_refs).__name__ == "builtin_function_or_method"


# ---- named references, text mode -------------------------------------------------------


@pytest.mark.parametrize("tail", ["", "x", "X9", "=", ";", " ", "&amp;", "\u00e9", "#", "<"])
def test_every_name_text_mode(tail):
    cases = ["&" + name + tail for name in NAMES]
    wrong = [(c, decode(c), html.unescape(c)) for c in cases if decode(c) != html.unescape(c)]
    assert not wrong, wrong[:10]


def test_every_truncated_name_text_mode():
    cases = ["a&" + name[:cut] for name in NAMES for cut in range(1, len(name))]
    wrong = [(c, decode(c), html.unescape(c)) for c in cases if decode(c) != html.unescape(c)]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("&notit;", "\u00acit;"),  # longest match is the legacy "not"
        ("&notin;", "\u2209"),
        ("&amp", "&"),
        ("&ampx", "&x"),
        ("&amp=", "&="),
        ("&timesbar", "\u00d7bar"),
        ("&lt1", "<1"),
        ("&nLt;", "\u226a\u20d2"),  # two code points
        ("&fjlig;", "fj"),
        ("&Afr;", "\U0001d504"),  # beyond the BMP
        ("&CounterClockwiseContourIntegral;", "\u2233"),  # the longest name
        ("&foo;", "&foo;"),
        ("&;", "&;"),
        ("& amp;", "& amp;"),
        ("&&amp;", "&&"),
        ("&", "&"),
        ("a&", "a&"),
        ("\u00e9&amp;\U0001f4a9", "\u00e9&\U0001f4a9"),
    ],
)
def test_named_text_examples(source, expected):
    assert decode(source) == expected


# ---- named references, attribute mode (historical rule) ---------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("&not", "\u00ac"),
        ("&notit;", "&notit;"),  # "&not" followed by an alphanumeric: left as text
        ("&notin;", "\u2209"),
        ("&not=", "&not="),
        ("&notx", "&notx"),
        ("&not;x", "\u00acx"),  # ends with ';': always decoded
        ("&not;=", "\u00ac="),
        ("&not ", "\u00ac "),
        ("&not-", "\u00ac-"),
        ("&not&", "\u00ac&"),
        ("&amp", "&"),
        ("&ampx", "&ampx"),
        ("&amp=", "&amp="),
        ("&amp;=", "&="),
        ("?a=1&b=2", "?a=1&b=2"),
        ("?a=1&copy=2", "?a=1&copy=2"),
        ("?a=1&copy2", "?a=1&copy2"),
        ("?a&lt=1", "?a&lt=1"),
        ("&lt;=", "<="),
        ("&lt-", "<-"),
        ("&gt.", ">."),
        ("&AMPx", "&AMPx"),
        ("&timesbar", "&timesbar"),  # not "×bar": the longest match "times" is rejected
        ("&times_", "\u00d7_"),
        ("&nbspx&nbsp", "&nbspx\u00a0"),
        ("&foo;", "&foo;"),
        ("&#39=", "'="),  # numeric references have no historical rule
        ("&#x27a", "\u027a"),
    ],
)
def test_attribute_examples(source, expected):
    assert decode(source, True) == expected


@pytest.mark.parametrize("tail", ["", "x", "9", "=", ";", " ", "-", "&lt;"])
def test_every_name_attribute_mode(tail):
    cases = ["&" + name + tail for name in NAMES]
    wrong = [
        (c, decode(c, True), spec_named_attribute(c))
        for c in cases
        if decode(c, True) != spec_named_attribute(c)
    ]
    assert not wrong, wrong[:10]


# ---- numeric references ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("&#65;", "A"),
        ("&#65", "A"),
        ("&#65x", "Ax"),
        ("&#x41;", "A"),
        ("&#X41", "A"),
        ("&#x41g;", "Ag;"),
        ("&#x1F4A9;", "\U0001f4a9"),
        ("&#0000000000000000065;", "A"),
        ("&#0;", "\ufffd"),
        ("&#x0", "\ufffd"),
        ("&#x10FFFF;", "\U0010ffff"),
        ("&#x110000;", "\ufffd"),
        ("&#1114112;", "\ufffd"),
        ("&#xD800;", "\ufffd"),
        ("&#57343;", "\ufffd"),
        ("&#xD7FF;", "\ud7ff"),
        ("&#4294967361;", "\ufffd"),  # 2**32 + 65 must not wrap to "A"
        ("&#x100000041;", "\ufffd"),
        ("&#" + "9" * 200 + ";x", "\ufffdx"),  # every digit consumed
        ("&#x" + "f" * 200 + "g", "\ufffdg"),
        ("&#x80;", "\u20ac"),
        ("&#x81;", "\x81"),
        ("&#x9F;", "\u0178"),
        ("&#13;", "\r"),
        ("&#1;", "\x01"),  # html.unescape drops it; the spec keeps it
        ("&#xFFFE;", "\ufffe"),
        ("&#", "&#"),
        ("&#;", "&#;"),
        ("&#x", "&#x"),
        ("&#x;", "&#x;"),
        ("&#xg;", "&#xg;"),
        ("&# 65;", "&# 65;"),
        ("&#-1;", "&#-1;"),
    ],
)
def test_numeric_examples(source, expected):
    assert decode(source) == expected
    assert decode(source, True) == expected


def test_c1_replacement_table():
    for value in range(0x80, 0xA0):
        assert decode(f"&#{value};") == spec_numeric(value), hex(value)


def test_numeric_range_matches_reference():
    cases = [f"&#{v};" for v in range(0x300)] + [f"&#x{v:X}" for v in range(0xD7F0, 0xE010)]
    cases += [f"&#x{v:x};" for v in (0xFDD0, 0xFFFF, 0x1FFFE, 0x10FFFE, 0x10FFFF, 0x110000)]
    wrong = [(c, decode(c), unescape_text(c)) for c in cases if decode(c) != unescape_text(c)]
    assert not wrong, wrong[:10]


# ---- input boundaries and random strings ----------------------------------------------


@pytest.mark.parametrize("source", ["&CounterClockwiseContourIntegral;", "&#x1F4A9;", "&amp;", "&#65;"])
def test_every_prefix(source):
    """A reference cut by the end of the input (the engine must stop at `end`)."""
    for cut in range(len(source) + 1):
        prefix = source[:cut]
        assert decode(prefix) == unescape_text(prefix), prefix
        assert decode(prefix, True) == spec_named_attribute(prefix), prefix


def _random_strings(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    # fragments that start, end or break references
    pieces = ["&", "&", "&#", "&#x", "&#X", ";", "=", "#", "x", "<", "0", "9", "f", "Z"]
    pieces += [" ", "\t", "\u00e9", "\U0001f4a9"]
    out = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 8)):
            r = rng.random()
            if r < 0.35:
                parts.append(rng.choice(pieces))
            elif r < 0.6:
                name = rng.choice(NAMES)
                parts.append("&" + name[: rng.randint(1, len(name))])
            elif r < 0.75:
                parts.append(str(rng.getrandbits(rng.randint(1, 40))))
            elif r < 0.85:
                parts.append(format(rng.getrandbits(rng.randint(1, 40)), "x"))
            else:
                parts.append("".join(chr(rng.randint(0x20, 0x17F)) for _ in range(rng.randint(1, 5))))
        out.append("".join(parts))
    return out


def test_random_strings_text_mode():
    wrong = [
        (s, decode(s), unescape_text(s))
        for s in _random_strings(50_000, seed=1)
        if decode(s) != unescape_text(s)
    ]
    assert not wrong, wrong[:10]


def test_random_strings_attribute_mode():
    wrong = [
        (s, decode(s, True), spec_named_attribute(s))
        for s in _random_strings(10_000, seed=2)
        if decode(s, True) != spec_named_attribute(s)
    ]
    assert not wrong, wrong[:10]


# ---- html5lib-tests: the decoder alone, outside the tokenizer -----------------------------

HTML5LIB_TOKENIZER = ROOT.parent / "shared" / "corpora" / "html5lib-tests" / "tokenizer"
_ATTRIBUTE_CASE = re.compile(r"<h a='([^']*)'>")


def _html5lib_reference_cases() -> list[tuple[str, bool, str]]:
    """(source, in_attribute, expected) from the suite's character reference files: text
    that tokenizes to characters only, and values of <h a='...'>."""
    cases = []
    for name in ("entities.test", "namedEntities.test", "numericEntities.test"):
        for test in json.loads((HTML5LIB_TOKENIZER / name).read_text(encoding="utf-8"))["tests"]:
            source, tokens = test["input"], test["output"]
            if "\r" in source or "\0" in source:  # newline and NUL handling belong to the tokenizer
                continue
            attribute = _ATTRIBUTE_CASE.fullmatch(source)
            if attribute and len(tokens) == 1 and tokens[0][0] == "StartTag":
                cases.append((attribute.group(1), True, tokens[0][2]["a"]))
            elif "<" not in source and all(token[0] == "Character" for token in tokens):
                cases.append((source, False, "".join(token[1] for token in tokens)))
    return cases


def test_html5lib_reference_cases():
    if not HTML5LIB_TOKENIZER.exists():
        pytest.skip(f"html5lib-tests not found at {HTML5LIB_TOKENIZER}")
    cases = _html5lib_reference_cases()
    assert len(cases) > 4500  # a changed file format must not make this pass vacuously
    wrong = [(s, a, decode(s, a), want) for s, a, want in cases if decode(s, a) != want]
    assert not wrong, wrong[:10]


# ---- the generated table ----------------------------------------------------------------


def test_generated_table_is_fresh():
    """entities_gen.h is what tools/gen_entities.py writes today (run it to update)."""
    script = ROOT / "tools" / "gen_entities.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
