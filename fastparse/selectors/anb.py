"""The An+B microsyntax of :nth-child() and its kin (CSS Syntax Level 3, section 6).

An+B is defined on tokens, not characters: `2n+1` is a dimension (2, unit `n`)
and a signed number, `-n-3` one identifier. Escapes are decoded before the
words are compared (`\\6f dd` is `odd`), names compare ASCII case-insensitively,
comments separate nothing, and white space is only CSS's five characters: a
no-break space or a fullwidth digit makes the argument invalid, as in browsers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .tokenizer import DIGITS, WHITESPACE, ascii_lower, name_at, starts_ident


@dataclass(frozen=True)
class _Tok:
    kind: str           # num dim ident delim ws other
    text: str = ""      # a number as written; a name decoded and ASCII lower-cased; a delimiter
    integer: bool = False
    unit: str = ""      # a dimension's unit, decoded and ASCII lower-cased

    @property
    def signed(self) -> bool:
        return self.text[:1] in ("+", "-")


def _digit(css: str, i: int) -> bool:
    return i < len(css) and css[i] in DIGITS


def _starts_number(css: str, i: int) -> bool:
    """CSS Syntax 4.3.10"""
    if css[i] in "+-":
        i += 1
    return _digit(css, i) or (css[i : i + 1] == "." and _digit(css, i + 1))


def _number(css: str, i: int) -> tuple[str, bool, int]:
    """CSS Syntax 4.3.12: the number at i as written, whether it is an integer, its end."""
    start = i
    if css[i] in "+-":
        i += 1
    while i < len(css) and css[i] in DIGITS:
        i += 1
    integer = True
    if css[i : i + 1] == "." and _digit(css, i + 1):
        integer = False
        i += 1
        while i < len(css) and css[i] in DIGITS:
            i += 1
    if css[i : i + 1] in ("e", "E"):
        j = i + 1 + (css[i + 1 : i + 2] in ("+", "-"))
        if _digit(css, j):
            integer = False
            i = j
            while i < len(css) and css[i] in DIGITS:
                i += 1
    return css[start:i], integer, i


def _tokens(css: str) -> list[_Tok]:
    out: list[_Tok] = []
    i = 0
    while i < len(css):
        c = css[i]
        if c in WHITESPACE:
            while i < len(css) and css[i] in WHITESPACE:
                i += 1
            out.append(_Tok("ws"))
        elif css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = len(css) if end < 0 else end + 2   # a comment is no token, not even white space
        elif _starts_number(css, i):
            text, integer, i = _number(css, i)
            if starts_ident(css, i):
                unit, i = name_at(css, i)
                out.append(_Tok("dim", text, integer, ascii_lower(unit)))
            else:
                out.append(_Tok("num", text, integer))
        elif starts_ident(css, i):
            name, i = name_at(css, i)
            out.append(_Tok("ident", ascii_lower(name)))
        elif c in "+-":
            out.append(_Tok("delim", c))
            i += 1
        else:
            return [_Tok("other")]
    return out


def _dash_digits(s: str) -> int | None:
    """-N of a name's tail "-N" (N one or more ASCII digits), else None"""
    if len(s) > 1 and s[0] == "-" and all(c in DIGITS for c in s[1:]):
        return -int(s[1:])
    return None


def _b_after_n(rest: list[_Tok], dash: bool) -> int | None:
    """B from the tokens after the `n` (dash: the n ended in '-', a signless integer follows)."""
    if dash:
        if len(rest) == 1 and rest[0].kind == "num" and rest[0].integer and not rest[0].signed:
            return -int(rest[0].text)
        return None
    if not rest:
        return 0
    if len(rest) == 1 and rest[0].kind == "num" and rest[0].integer and rest[0].signed:
        return int(rest[0].text)
    if (len(rest) == 2 and rest[0].kind == "delim" and rest[1].kind == "num" and rest[1].integer
            and not rest[1].signed):
        return int(rest[1].text) * (-1 if rest[0].text == "-" else 1)
    return None


def _from_n(a: int, tail: str, rest: list[_Tok]) -> tuple[int, int] | None:
    """A and B when the n is followed by tail in its own token ("" or "-" or "-N")"""
    if tail in ("", "-"):
        b = _b_after_n(rest, dash=tail == "-")
        return None if b is None else (a, b)
    b = _dash_digits(tail)
    return None if b is None or rest else (a, b)


def parse_anb(css: str) -> tuple[int, int] | None:
    """(A, B) of the An+B text css (what :nth-child() holds before `of`), or None
    when it is not one. Raises ValueError for a number Python will not read."""
    toks = _tokens(css)
    while toks and toks[0].kind == "ws":
        toks.pop(0)
    plus = bool(toks) and toks[0].kind == "delim" and toks[0].text == "+"
    if plus:   # '+n...': no white space between the '+' and the n
        if len(toks) < 2 or toks[1].kind != "ident" or not toks[1].text.startswith("n"):
            return None
        toks.pop(0)
    words = [t for t in toks if t.kind != "ws"]
    if not words:
        return None
    first, rest = words[0], words[1:]
    if first.kind == "ident":
        if first.text in ("odd", "even") and not rest:
            return (2, 1 if first.text == "odd" else 0)
        if first.text.startswith("n"):
            return _from_n(1, first.text[1:], rest)
        if first.text.startswith("-n"):
            return _from_n(-1, first.text[2:], rest)
        return None
    if first.kind == "num" and first.integer and not rest:
        return (0, int(first.text))
    if first.kind == "dim" and first.integer and first.unit.startswith("n"):
        return _from_n(int(first.text), first.unit[1:], rest)
    return None
