"""The attribute states of a start tag (HTML Standard 13.2.5.32-13.2.5.39) against a
transcription of them in Python. The engine reads name="value" from one 16-byte load
(tokenizer_tag.h, tok_attr_quoted) and every other shape byte by byte, so the cases
below put each boundary of that load in every place: names and values of every length
around 16 bytes, the closing quote at its last byte and past it, and tags that end
fewer than 16 bytes before the input does (where the load is not made)."""
from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import fastparse as fp

WS = "\t\n\f "
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def reference_attributes(s: str, i: int) -> tuple[dict[str, str], int] | None:
    """From s[i] (just after a tag name) to the tag's '>': its attributes (the first of
    a name wins) and the index past the '>', or None when the input ends first."""
    attrs: dict[str, str] = {}
    n = len(s)
    while True:
        while i < n and s[i] in WS:                     # before attribute name
            i += 1
        if i >= n:
            return None
        if s[i] == ">":
            return attrs, i + 1
        if s[i] == "/":                                 # self-closing start tag
            i += 1
            if i < n and s[i] == ">":
                return attrs, i + 1
            continue                                    # reconsume before a name
        start = i                                       # attribute name; a leading '=' is in it
        i += 1
        while i < n and s[i] not in WS + "/>=":
            i += 1
        name = s[start:i].translate(ASCII_LOWER).replace("\x00", "\ufffd")
        j = i                                           # after attribute name
        while j < n and s[j] in WS:
            j += 1
        value = ""
        if j < n and s[j] == "=":
            i = j + 1                                   # before attribute value
            while i < n and s[i] in WS:
                i += 1
            if i >= n:
                return None
            if s[i] in "\"'":
                close = s.find(s[i], i + 1)
                if close < 0:
                    return None
                value, i = s[i + 1:close], close + 1
            else:                                       # unquoted ('>' here: empty)
                k = i
                while k < n and s[k] not in WS + ">":
                    k += 1
                value, i = s[i:k], k
        else:
            i = j
        attrs.setdefault(name, value.replace("\x00", "\ufffd"))


def check(attribute_text: str, rest: str = "") -> None:
    """<p + attribute_text + rest, parsed as str and as UTF-8 bytes: the <p>'s attributes
    and where its content starts are the reference's (rest holds no '<')."""
    source = "<p" + attribute_text + rest
    expected = reference_attributes(source, 2)
    for doc in (fp.parse(source), fp.parse(source.encode("utf-8"))):
        p = doc.find("p")
        if expected is None:                            # eof-in-tag: the tag is dropped
            assert not p, repr(source)
            continue
        attrs, content = expected
        assert p.attrs == attrs, repr(source)
        assert p.inner_html == source[content:], repr(source)


def test_every_length_around_the_load():
    """Names of 1-18 bytes and values of 0-34 bytes, double-quoted, single-quoted and
    unquoted, followed by '>', another attribute or '/>', 0-20 bytes from the end."""
    for name_len, value_len in itertools.product(range(1, 19), range(35)):
        name = ("data-" + "n" * name_len)[-name_len:]
        value = ("v/w.x " * 8)[:value_len]
        for quote, after in itertools.product(('"', "'", ""), (">", ' b="c">', "/>", "\tb=c>")):
            if not quote and (" " in value or not value):
                continue
            for pad in (0, 1, 7, 15, 16, 20):
                check(f" {name}={quote}{value}{quote}{after}", "x" * pad)


def test_shapes_the_load_passes_on():
    cases = [
        ' a = "b">', ' a ="b">', ' a= "b">', " a=\"b'>", " a='b\">", ' ="x" y="z">',
        ' ==="x">', ' a="b"c="d">', ' a=""b="">', ' a/b="c">', ' a="b"/>', ' a="b" / >',
        ' a\x00b="c\x00d">', ' A="B" a="c">', ' a="b" A="c">', ' a=">" b=">">', " a=<b>",
        ' a="b', ' a="' + "x" * 40, ' a=', ' a', ' a="b"', ' a\x0bb="c">', ' a="b\x0bc">',
        ' a\x01="b">', ' é="ü" ü="é">', ' a="' + "é" * 20 + '" b="c">', ' a=`b` c="d">',
    ]
    for text in cases:
        for pad in (0, 3, 16, 40):
            check(text, "x" * pad)


ATTRIBUTE_TEXT = st.text(alphabet=' \t\n\f="\'/>abAB-\x00\x0bé', max_size=60)


@settings(max_examples=3000, deadline=None)
@given(ATTRIBUTE_TEXT, st.integers(0, 24))
def test_random_attribute_text(text, pad):
    check(" " + text, "x" * pad)
